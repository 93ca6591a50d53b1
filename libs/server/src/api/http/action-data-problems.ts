import { ActionTypeRegistry, InvalidActionDataError } from '@app/action-types';
import { mapInSlices } from './event-loop-slices';

/** Where a DTO class holds an action's `action` and `data`: itself (`null`), or each item of an array property. */
const holders = new WeakMap<object, string | null>();

/**
 * Marks a body whose `data` is checked against its `action`'s type even when the rest of the body is
 * refused, so that one answer lists both. `items`: the array property whose every item holds one.
 */
export function HoldsActionData(items?: string): ClassDecorator {
  return (dto) => {
    holders.set(dto, items ?? null);
  };
}

/**
 * The problems of each `data` the body holds, named by their path: the same messages a body
 * refused for its data alone gets. Data beside an `action` that names no type, or that is not an
 * object itself, is left to the body's own problems (an unknown type is answered once the rest is valid).
 */
export async function actionDataProblems(types: ActionTypeRegistry, dto: object, value: unknown): Promise<string[]> {
  const items = holders.get(dto);
  if (items === undefined || !isObject(value)) return [];
  const held = items === null ? [{ body: value, path: 'data' }] : arrayOf(value[items]).map((body, index) => ({ body, path: `${items}.${index}.data` }));
  // In slices, as a batch's items are checked when it is valid: a refused batch of a thousand holds no other request back.
  const found = await mapInSlices(held, async ({ body, path }) => {
    if (!isObject(body) || typeof body.action !== 'string' || !types.has(body.action) || !isObject(body.data)) return [];
    try {
      await types.validateData(body.action, body.data, path);
      return [];
    } catch (error) {
      if (!(error instanceof InvalidActionDataError)) throw error;
      return error.problems;
    }
  });
  return found.flat();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
