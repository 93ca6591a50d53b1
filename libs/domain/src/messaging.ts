import { DEFAULT_TENANT } from './tenancy';

/**
 * What an operator allowed a tenant's MESSAGE actions to reach: transports by their
 * `MESSAGE_TRANSPORTS` name, and patterns, each exact or, ending in `.`, a prefix.
 */
export interface MessagingGrant {
  transports: string[];
  patterns: string[];
}

/** What a tenant reaches: a grant, or null for every transport and pattern. */
export type MessagingReach = MessagingGrant | null;

export const MAX_GRANTED_TRANSPORTS = 50;
export const MAX_GRANTED_PATTERNS = 100;
export const MAX_PATTERN_LENGTH = 200;

const NOTHING: MessagingGrant = { transports: [], patterns: [] };

/**
 * What a tenant reaches, from the grant an operator stored for it (null when none was, or the tenant
 * has no row): the tenant `default` keeps every transport and pattern until an operator limits it,
 * so a deployment with one team works as before; any other tenant reaches nothing until allowed.
 */
export function messagingReach(tenant: string, stored: MessagingGrant | null): MessagingReach {
  if (stored) return stored;
  return tenant === DEFAULT_TENANT ? null : NOTHING;
}

/** Why the tenant may not send `pattern` on `transport`, naming the one refused; null when it may. */
export function messagingRefusal(
  tenant: string,
  reach: MessagingReach,
  message: { transport: string; pattern: string },
): { field: 'transport' | 'pattern'; reason: string } | null {
  if (reach === null) return null;
  if (!reach.transports.includes(message.transport)) {
    return {
      field: 'transport',
      reason: `transport "${message.transport}" is not allowed for tenant ${tenant}; an operator allows it in the tenant's messaging`,
    };
  }
  if (!reach.patterns.some((allowed) => patternMatches(allowed, message.pattern))) {
    return {
      field: 'pattern',
      reason: `pattern "${message.pattern}" is not allowed for tenant ${tenant}; an operator allows it in the tenant's messaging`,
    };
  }
  return null;
}

/** A pattern ending in `.` allows every pattern that starts with it; any other allows itself alone. */
function patternMatches(allowed: string, pattern: string): boolean {
  return allowed.endsWith('.') ? pattern.startsWith(allowed) : pattern === allowed;
}

/**
 * What a message pattern may be made of: visible ASCII, so no space, line break or look-alike
 * letter, and no `*` or `>`, which transports read as wildcards.
 */
export const MESSAGE_PATTERN_SHAPE = /^[\x21-\x29\x2b-\x3d\x3f-\x7e]+$/;

/** Why a pattern is not one a transport can carry as given; null when it is. */
export function messagePatternProblem(pattern: string): string | null {
  return MESSAGE_PATTERN_SHAPE.test(pattern)
    ? null
    : `"${pattern}" is not a message pattern: use visible ASCII characters without spaces, "*" or ">" (a prefix ends in "." and allows every pattern that starts with it)`;
}

/**
 * What is wrong with a grant an operator sends, field by field (`messaging.…`): transports must be
 * names of `MESSAGE_TRANSPORTS`, patterns 1–200 characters of the shape `messagePatternProblem` allows.
 */
export function messagingGrantProblems(grant: MessagingGrant, transportNames: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [index, name] of grant.transports.entries()) {
    if (!transportNames.includes(name)) {
      problems.push(
        `messaging.transports.${index}: transport "${name}" is not configured; MESSAGE_TRANSPORTS names ${[...transportNames].sort().join(', ')}`,
      );
    }
  }
  for (const [index, pattern] of grant.patterns.entries()) {
    const problem = messagePatternProblem(pattern);
    if (problem) problems.push(`messaging.patterns.${index}: ${problem}`);
  }
  return problems;
}
