/** The NATS server of the test run (`scripts/test-services.sh` starts one on this machine when none answers). */
export const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
