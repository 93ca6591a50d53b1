import { BadRequestException, Body, Controller, Get, NotFoundException, Param, Post } from '@nestjs/common';
import { AccountsStore } from './accounts.store';
import { TrialsService } from './trials.service';

/** `POST /trials { accountId, endsAt }` starts a trial; `GET /accounts/:id` shows the plan. */
@Controller()
export class TrialsController {
  constructor(
    private readonly trials: TrialsService,
    private readonly accounts: AccountsStore,
  ) {}

  @Post('trials')
  async start(@Body() body: { accountId?: unknown; endsAt?: unknown }): Promise<{ accountId: string; actionId: string; endsAt: string }> {
    const endsAt = new Date(typeof body.endsAt === 'string' || typeof body.endsAt === 'number' ? body.endsAt : NaN);
    if (typeof body.accountId !== 'string' || !body.accountId || Number.isNaN(endsAt.getTime())) {
      throw new BadRequestException('accountId (a string) and endsAt (a time) are required');
    }
    const action = await this.trials.startTrial(body.accountId, endsAt);
    return { accountId: body.accountId, actionId: action.id, endsAt: action.executionTime };
  }

  @Get('accounts/:id')
  account(@Param('id') id: string): { accountId: string; plan: string } {
    const plan = this.accounts.planOf(id);
    if (!plan) throw new NotFoundException(`No account ${id}`);
    return { accountId: id, plan };
  }
}
