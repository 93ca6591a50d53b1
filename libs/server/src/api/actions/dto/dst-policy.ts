import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy, ValidateIf } from 'class-validator';
import { DST_GAP_RULES, DST_OVERLAP_RULES } from '@app/domain';

const POLICY_TEXT = `dstPolicy must be an object { gap: ${DST_GAP_RULES.join(' | ')}, overlap: ${DST_OVERLAP_RULES.join(' | ')} }, or null`;

/** Why `value` is not a DST policy, naming the field; null when it is one. */
function dstPolicyProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return POLICY_TEXT;
  const { gap, overlap, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) return `dstPolicy.${extra} should not exist`;
  if (!(DST_GAP_RULES as readonly unknown[]).includes(gap)) return `dstPolicy.gap must be one of ${DST_GAP_RULES.join(', ')}`;
  if (!(DST_OVERLAP_RULES as readonly unknown[]).includes(overlap)) return `dstPolicy.overlap must be one of ${DST_OVERLAP_RULES.join(', ')}`;
  return null;
}

/** `dstPolicy`: may be left out or null (the default; on a change, back to it), else both rules. */
export function IsDstPolicy(): PropertyDecorator {
  const documented = ApiPropertyOptional({
    type: 'object',
    nullable: true,
    properties: { gap: { enum: [...DST_GAP_RULES] }, overlap: { enum: [...DST_OVERLAP_RULES] } },
    description:
      'Repeating wall-clock schedules: a local time the clocks skip (shift: run after the jump; skip: not that day), one they repeat (first, last, both)',
  });
  const given = ValidateIf((_object: object, value: unknown) => value !== undefined && value !== null);
  const valid = ValidateBy({
    name: 'isDstPolicy',
    validator: { validate: (value: unknown) => dstPolicyProblem(value) === null, defaultMessage: (args) => dstPolicyProblem(args?.value) ?? POLICY_TEXT },
  });
  return (target, key) => {
    documented(target, key);
    given(target, key);
    valid(target, key);
  };
}
