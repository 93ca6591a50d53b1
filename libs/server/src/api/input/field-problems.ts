import { ValidateBy, ValidationError, getMetadataStorage } from 'class-validator';
import { closestName } from './did-you-mean';

/** Rules whose value may have several problems at once: each named rule lists them all (see `ValidateByProblems`). */
const problemLists = new Map<string, (value: unknown) => string[]>();

/**
 * A rule that lists every problem of a value (a nested object such as `retryPolicy`), each naming
 * its field; the answer carries them all, not the first alone.
 */
export function ValidateByProblems(name: string, problems: (value: unknown) => string[]): PropertyDecorator {
  problemLists.set(name, problems);
  return ValidateBy({
    name,
    validator: { validate: (value: unknown) => problems(value).length === 0, defaultMessage: (args) => problems(args?.value)[0] ?? '' },
  });
}

/** Whitelisting's mark of a field the class does not know. */
const UNKNOWN_FIELD = 'whitelistValidation';

/**
 * The problems of a body, one per field, in Punctual's words: a field left out is "required" (on
 * the condition its rule's message states, if any); of
 * several rules a value breaks, the message of the first one declared (usually "must be a …");
 * an unknown field names the known one it most likely misspells; a rule declared with
 * `ValidateByProblems` gives each of its problems.
 */
export function fieldProblems(errors: readonly ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    return [...ownProblems(error, path, parent), ...fieldProblems(error.children ?? [], path)];
  });
}

function ownProblems(error: ValidationError, path: string, parent: string): string[] {
  const constraints = error.constraints ?? {};
  const names = Object.keys(constraints);
  if (names.length === 0) return [];
  if (names.includes(UNKNOWN_FIELD)) return [unknownField(error, parent)];
  const name = names.at(-1)!;
  if (error.value === undefined) return [`${path} is required${conditionOf(constraints[name])}`];
  const listed = problemLists.get(name)?.(error.value);
  const messages = listed ?? [constraints[name]];
  // Messages name the field from its own object: a nested one's path leads (`items.2.`).
  return parent ? messages.map((message) => `${parent}.${message}`) : messages;
}

/** The condition a rule's message puts on its field ("… when repeat is true"), so that "required" keeps it. */
function conditionOf(message: string): string {
  const at = message.indexOf(' when ');
  return at < 0 ? '' : message.slice(at);
}

function unknownField(error: ValidationError, parent: string): string {
  return `${parent ? `${parent}.` : ''}${unknownFieldProblem(error.property, error.target ? knownFields(error.target.constructor as DtoClass) : [])}`;
}

/** A field of no meaning here, and the known one it most likely misspells. */
export function unknownFieldProblem(field: string, known: readonly string[]): string {
  const suggestion = closestName(field, known);
  return `property ${field} should not exist${suggestion ? `; did you mean ${suggestion}?` : ''}`;
}

/** A DTO class, as class-validator keeps its rules. */
type DtoClass = abstract new (...args: never[]) => unknown;

/** The fields a DTO class declares rules for. */
export function knownFields(dto: DtoClass): string[] {
  const rules = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  return [...new Set(rules.map((rule) => rule.propertyName))];
}
