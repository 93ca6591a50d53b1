import { parseAllowedHosts } from '@app/config';
import { EgressPolicy } from './egress-policy';

const strict = new EgressPolicy();
const allowing = (entries: string) => new EgressPolicy(parseAllowedHosts(entries).hosts);

describe('EgressPolicy', () => {
  describe('refuses every internal range by default', () => {
    it.each([
      ['0.0.0.0', 'an unspecified'],
      ['0.255.1.2', 'an unspecified'],
      ['::', 'an unspecified'],
      ['127.0.0.1', 'a loopback'],
      ['127.255.255.254', 'a loopback'],
      ['::1', 'a loopback'],
      ['10.0.0.1', 'a private'],
      ['10.255.255.255', 'a private'],
      ['172.16.0.1', 'a private'],
      ['172.31.255.255', 'a private'],
      ['192.168.1.1', 'a private'],
      ['fc00::1', 'a private'],
      ['fd12:3456::1', 'a private'],
      ['fec0::1', 'a private'],
      ['169.254.169.254', 'a link-local'],
      ['169.254.0.1', 'a link-local'],
      ['fe80::1', 'a link-local'],
      ['fe80::1%eth0', 'a link-local'],
      ['febf::1', 'a link-local'],
      ['100.64.0.1', 'a shared (carrier-grade NAT)'],
      ['100.127.255.255', 'a shared (carrier-grade NAT)'],
      ['224.0.0.1', 'a multicast'],
      ['239.255.255.250', 'a multicast'],
      ['ff02::1', 'a multicast'],
      ['255.255.255.255', 'the broadcast'],
    ])('%s is %s address', (address, kind) => {
      expect(strict.refusalOfAddress(address)).toBe(`${address} is ${kind} address`);
    });
  });

  describe('judges IPv4 addresses embedded in IPv6 as the IPv4 address they reach', () => {
    it.each([
      ['::ffff:169.254.169.254', 'a link-local'],
      ['::ffff:a9fe:a9fe', 'a link-local'],
      ['::FFFF:A9FE:A9FE', 'a link-local'],
      ['::ffff:7f00:1', 'a loopback'],
      ['::ffff:127.0.0.1', 'a loopback'],
      ['0:0:0:0:0:ffff:7f00:1', 'a loopback'],
      ['::ffff:0:0', 'an unspecified'],
      ['::7f00:1', 'a loopback'],
      ['::10.0.0.1', 'a private'],
      ['::ffff:0:a9fe:a9fe', 'a link-local'],
      ['64:ff9b::a9fe:a9fe', 'a link-local'],
      ['64:ff9b::192.168.0.1', 'a private'],
      ['[::ffff:169.254.169.254]', 'a link-local'],
    ])('%s is %s address', (address, kind) => {
      expect(strict.refusalOfAddress(address)).toBe(`${address} is ${kind} address`);
    });

    it.each(['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::808:808'])('%s reaches a public address and is allowed', (address) => {
      expect(strict.refusalOfAddress(address)).toBeNull();
    });
  });

  describe('allows the public internet', () => {
    it.each([
      '8.8.8.8',
      '1.1.1.1',
      '93.184.216.34',
      '172.15.255.255',
      '172.32.0.1',
      '100.63.255.255',
      '100.128.0.1',
      '169.253.255.255',
      '223.255.255.255',
      '192.169.0.1',
      '11.0.0.1',
      '2606:4700:4700::1111',
      '2001:db8::1',
      'fbff::1',
    ])('%s', (address) => expect(strict.refusalOfAddress(address)).toBeNull());
  });

  it('refuses what is not an IP address', () => {
    expect(strict.refusalOfAddress('example.com')).toBe('example.com is not an IP address');
  });

  describe('OUTBOUND_ALLOWED_HOSTS', () => {
    it('allows a listed address, and only it', () => {
      const policy = allowing('127.0.0.1');
      expect(policy.refusalOfAddress('127.0.0.1')).toBeNull();
      expect(policy.refusalOfAddress('::ffff:127.0.0.1')).toBeNull();
      expect(policy.refusalOfAddress('127.0.0.2')).toBe('127.0.0.2 is a loopback address');
      expect(policy.refusalOfAddress('::1')).toBe('::1 is a loopback address');
    });

    it('allows every address of a listed CIDR range, IPv4 or IPv6', () => {
      const policy = allowing('10.1.0.0/16,fd00:1::/32');
      expect(policy.refusalOfAddress('10.1.200.3')).toBeNull();
      expect(policy.refusalOfAddress('::ffff:10.1.0.9')).toBeNull();
      expect(policy.refusalOfAddress('10.2.0.1')).toBe('10.2.0.1 is a private address');
      expect(policy.refusalOfAddress('fd00:1:ffff::1')).toBeNull();
      expect(policy.refusalOfAddress('fd00:2::1')).toBe('fd00:2::1 is a private address');
    });

    it('allows a listed host name whatever its case or trailing dot, and nothing else by name', () => {
      const policy = allowing('Hooks.Internal.');
      expect(policy.allowsHostName('hooks.internal')).toBe(true);
      expect(policy.allowsHostName('HOOKS.INTERNAL.')).toBe(true);
      expect(policy.allowsHostName('other.internal')).toBe(false);
      expect(policy.allowsHostName('x.hooks.internal')).toBe(false);
      expect(strict.allowsHostName('hooks.internal')).toBe(false);
    });
  });

  describe('refusalOfUrl, the check made when an action is stored', () => {
    it.each([
      ['http://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address'],
      ['http://2130706433/', '127.0.0.1 is a loopback address'],
      ['http://0177.0.0.1/', '127.0.0.1 is a loopback address'],
      ['http://0x7f.1/', '127.0.0.1 is a loopback address'],
      ['http://127.1:8080/', '127.0.0.1 is a loopback address'],
      ['http://0/', '0.0.0.0 is an unspecified address'],
      ['http://[::1]:5432/', '::1 is a loopback address'],
      ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe is a link-local address'],
      ['http://[::ffff:7f00:1]/', '::ffff:7f00:1 is a loopback address'],
      ['https://[fe80::1]/', 'fe80::1 is a link-local address'],
      ['http://localhost:3000/admin/queues', 'localhost is a loopback address'],
      ['http://LOCALHOST./', 'localhost is a loopback address'],
      ['http://api.localhost/', 'api.localhost is a loopback address'],
    ])('%s: %s', (url, refusal) => {
      expect(strict.refusalOfUrl(new URL(url))).toBe(refusal);
    });

    it.each(['https://example.com/hook', 'http://8.8.8.8/', 'http://internal.test/', 'http://localhost.example.com/'])(
      'leaves %s to the check at call time',
      (url) => expect(strict.refusalOfUrl(new URL(url))).toBeNull(),
    );

    it('allows localhost when the name or a loopback address is listed', () => {
      expect(allowing('localhost').refusalOfUrl(new URL('http://localhost:4000/'))).toBeNull();
      expect(allowing('127.0.0.1').refusalOfUrl(new URL('http://localhost:4000/'))).toBeNull();
      expect(allowing('::1').refusalOfUrl(new URL('http://localhost:4000/'))).toBeNull();
      expect(allowing('localhost').refusalOfUrl(new URL('http://127.0.0.1:4000/'))).toBe('127.0.0.1 is a loopback address');
    });
  });
});
