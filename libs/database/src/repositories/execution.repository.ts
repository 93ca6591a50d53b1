import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ActionStatus } from '@app/domain';
import { ActionEntity } from '../entities/action.entity';
import { ClaimLeasesPort } from '../ports/lifecycle-store.port';

/**
 * A running attempt's lease: a claim (see `LifecycleStore.claim`) is a lease on Postgres's clock
 * under a fencing token, renewed while the attempt runs and taken over only once it lapsed.
 */
@Injectable()
export class ExecutionRepository implements ClaimLeasesPort {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Extends a running attempt's lease; false when the claim is no longer this token's (it was taken over). */
  async renew(action: ActionEntity, leaseMs: number): Promise<boolean> {
    const [, renewed]: [unknown, number] = await this.dataSource.query(
      `UPDATE actions SET claimed_until = now() + $3 * interval '1 millisecond'
       WHERE id = $1 AND claim_token = $2 AND status = 'IN_PROGRESS'`,
      [action.id, action.claimToken, leaseMs],
    );
    return renewed === 1;
  }

  /** The action as it is now if `token` still holds its claim, else null (a takeover fenced it off). */
  async claimed(id: string, token: string): Promise<ActionEntity | null> {
    return this.dataSource.getRepository(ActionEntity).findOneBy({ id, claimToken: token, status: ActionStatus.InProgress });
  }
}
