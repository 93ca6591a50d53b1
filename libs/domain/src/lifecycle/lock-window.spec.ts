import { ActionStatus } from '../action-vocabulary';
import { TransitionRefusedError } from './lifecycle.errors';
import { state } from './lifecycle.cases';
import { unlockedGuard } from './lock-window';

const now = new Date('2025-03-01T12:00:00.000Z');
const WINDOW_MS = 120_000;
const action = (status: ActionStatus, executionTime: string) => ({ ...state({ status, executionTime: new Date(executionTime) }), id: 'a1' });

describe('the lock window', () => {
  it('guards a change of a PENDING action due after the window with its status and the window’s end', () => {
    expect(unlockedGuard(action(ActionStatus.Pending, '2025-03-01T12:02:00.001Z'), 'changed', now, WINDOW_MS)).toEqual({
      statuses: [ActionStatus.Pending],
      dueAfter: new Date('2025-03-01T12:02:00.000Z'),
    });
  });

  it('guards the deletion of a finished action by its status alone', () => {
    expect(unlockedGuard(action(ActionStatus.Failed, '2025-03-01T11:00:00.000Z'), 'deleted', now, WINDOW_MS)).toEqual({ statuses: [ActionStatus.Failed] });
  });

  it('guards a change of an occurrence a pause holds by its revision and status alone, whatever its time: it cannot run until a resume', () => {
    const held = { ...action(ActionStatus.Pending, '2025-03-01T11:00:00.000Z'), pausedFrom: 1 };
    expect(unlockedGuard(held, 'changed', now, WINDOW_MS)).toEqual({ statuses: [ActionStatus.Pending] });
    expect(() => unlockedGuard({ ...held, pausedFrom: 2 }, 'deleted', now, WINDOW_MS)).toThrow(/inside the lock window/);
  });

  it.each<[string, ActionStatus, string, 'changed' | 'deleted', RegExp]>([
    ['a PENDING action due inside the window', ActionStatus.Pending, '2025-03-01T12:02:00.000Z', 'changed', /inside the lock window of 120000 ms/],
    ['a running action', ActionStatus.InProgress, '2025-03-01T11:00:00.000Z', 'deleted', /IN_PROGRESS .* use POST \/actions\/a1\/cancel/],
    ['a change of a finished action', ActionStatus.Completed, '2025-03-01T11:00:00.000Z', 'changed', /finished actions can be deleted but not changed/],
  ])('refuses %s', (_name, status, executionTime, verb, reason) => {
    expect(() => unlockedGuard(action(status, executionTime), verb, now, WINDOW_MS)).toThrow(TransitionRefusedError);
    expect(() => unlockedGuard(action(status, executionTime), verb, now, WINDOW_MS)).toThrow(reason);
  });
});
