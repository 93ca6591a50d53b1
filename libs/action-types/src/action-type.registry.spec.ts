import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { OutboundUrl, defineActionType } from '@punctual/sdk';
import { dataProblems } from '@app/testing';
import { ActionTypeRegistry } from './action-type.registry';

class Endpoint {
  @OutboundUrl() url: string;
  @IsOptional() @IsString() label?: string;
}

class Fanout {
  @ValidateNested() @Type(() => Endpoint) primary: Endpoint;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Endpoint) mirrors?: Endpoint[];
}

const FANOUT = defineActionType({ type: 'FANOUT', dataClass: Fanout });

describe('ActionTypeRegistry: @OutboundUrl() fields of nested data classes', () => {
  const registry = new ActionTypeRegistry([FANOUT]);

  it('refuses an internal destination in a nested object and in an array of them, naming the field', async () => {
    expect(await dataProblems(registry, 'FANOUT', { primary: { url: 'http://169.254.169.254/latest/meta-data' } })).toEqual([
      'data.primary.url: the destination is not allowed (169.254.169.254 is a link-local address)',
    ]);
    expect(
      await dataProblems(registry, 'FANOUT', {
        primary: { url: 'https://hooks.example.com/a' },
        mirrors: [{ url: 'https://hooks.example.com/b' }, { url: 'http://2130706433/' }],
      }),
    ).toEqual(['data.mirrors.1.url: the destination is not allowed (127.0.0.1 is a loopback address)']);
  });

  it('accepts public destinations, and names a malformed nested URL once', async () => {
    expect(
      await dataProblems(registry, 'FANOUT', { primary: { url: 'https://hooks.example.com/a' }, mirrors: [{ url: 'https://hooks.example.com/b' }] }),
    ).toEqual([]);
    expect(await dataProblems(registry, 'FANOUT', { primary: { url: 'not a url' } })).toEqual(['data.primary.url: url must be an http or https URL']);
  });
});
