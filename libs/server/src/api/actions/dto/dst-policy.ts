import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import { DST_GAP_RULES, DST_OVERLAP_RULES } from '@app/domain';
import { ValidateByProblems } from '../../input/field-problems';

const POLICY_TEXT = `dstPolicy must be an object { gap: ${DST_GAP_RULES.join(' | ')}, overlap: ${DST_OVERLAP_RULES.join(' | ')} }, or null`;

/** Why `value` is not a DST policy: every problem, each naming its field; none when it is one. */
function dstPolicyProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [POLICY_TEXT];
  const { gap, overlap, ...rest } = value as Record<string, unknown>;
  const problems = Object.keys(rest).map((extra) => `dstPolicy.${extra} should not exist`);
  if (!(DST_GAP_RULES as readonly unknown[]).includes(gap)) problems.push(`dstPolicy.gap must be one of ${DST_GAP_RULES.join(', ')}`);
  if (!(DST_OVERLAP_RULES as readonly unknown[]).includes(overlap)) problems.push(`dstPolicy.overlap must be one of ${DST_OVERLAP_RULES.join(', ')}`);
  return problems;
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
  const valid = ValidateByProblems('isDstPolicy', dstPolicyProblems);
  return (target, key) => {
    documented(target, key);
    given(target, key);
    valid(target, key);
  };
}
