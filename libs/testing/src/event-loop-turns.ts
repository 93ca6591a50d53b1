/** The turns of the event loop that other work gets while `during` runs: 0 for work that never lets go of it. */
export async function eventLoopTurnsDuring(during: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let running = true;
  const tick = (): void => {
    if (!running) return;
    turns += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    await during();
  } finally {
    running = false;
  }
  return turns;
}
