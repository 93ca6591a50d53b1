import { ActionTypeRegistry, InvalidActionDataError } from '@app/action-types';

/** The problems the registry finds in `data` for `type`: empty when the data is valid. */
export async function dataProblems(registry: ActionTypeRegistry, type: string, data: object): Promise<string[]> {
  try {
    await registry.validateData(type, data);
    return [];
  } catch (error) {
    if (error instanceof InvalidActionDataError) return error.problems;
    throw error;
  }
}
