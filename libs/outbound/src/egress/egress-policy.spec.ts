import { networkInterfaces } from 'node:os';
import { NO_ALLOWED_HOSTS, parseAllowedHosts } from '@app/config';
import { EgressPolicy } from './egress-policy';
import { OwnAddresses } from './own-addresses';

// The ranges are judged on a machine without interfaces, so that no address is this machine's own.
const noInterfaces = () => new OwnAddresses(() => []);
const strict = new EgressPolicy(NO_ALLOWED_HOSTS, noInterfaces());
const allowing = (entries: string) => new EgressPolicy(parseAllowedHosts(entries).hosts, noInterfaces());

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
      ['192.0.0.0', 'a reserved'],
      ['192.0.0.8', 'a reserved'],
      ['192.0.0.255', 'a reserved'],
      ['192.0.2.1', 'a documentation'],
      ['192.0.2.255', 'a documentation'],
      ['198.51.100.7', 'a documentation'],
      ['203.0.113.200', 'a documentation'],
      ['2001:db8::1', 'a documentation'],
      ['3fff:fff::1', 'a documentation'],
      ['198.18.0.1', 'a benchmarking'],
      ['198.19.255.255', 'a benchmarking'],
      ['2001:2::1', 'a benchmarking'],
      ['240.0.0.1', 'a reserved'],
      ['254.255.255.255', 'a reserved'],
      ['2001::1', 'a Teredo'],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'a Teredo'],
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
      ['::ffff:192.0.2.1', 'a documentation'],
      ['::ffff:c000:201', 'a documentation'],
      ['::ffff:198.18.0.1', 'a benchmarking'],
      ['::ffff:f000:1', 'a reserved'],
      ['::127.0.0.1', 'a loopback'],
      ['64:ff9b::7f00:1', 'a loopback'],
      ['64:ff9b::127.0.0.1', 'a loopback'],
      ['64:ff9b::cb00:7101', 'a documentation'],
      // Local-use NAT64: the /96 layout, anywhere under the /48…
      ['64:ff9b:1::7f00:1', 'a loopback'],
      ['64:ff9b:1::a9fe:a9fe', 'a link-local'],
      ['64:ff9b:1:abcd:0:1:10.0.0.1', 'a private'],
      // …the /64 layout (bits 72–103: 127.0.0.1), and the /48 layout, whose last 32 bits read 0.0.0.0.
      ['64:ff9b:1:0:7f:0:100:0', 'a loopback'],
      ['64:ff9b:1:808:8:800::', 'an unspecified'],
      // 6to4: the IPv4 address is bits 16–48.
      ['2002:7f00:1::', 'a loopback'],
      ['2002:7f00:0001:0:0:0:0:1', 'a loopback'],
      ['2002:a9fe:a9fe::1', 'a link-local'],
      ['2002:0a00:0001:ffff::', 'a private'],
      ['2002:c000:0201::', 'a documentation'],
      ['2002::1', 'an unspecified'],
    ])('%s is %s address', (address, kind) => {
      expect(strict.refusalOfAddress(address)).toBe(`${address} is ${kind} address`);
    });

    it.each(['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::808:808', '64:ff9b:1::808:808', '64:ff9b:1:0:8:808:800:0', '2002:808:808::1'])(
      '%s reaches a public address and is allowed',
      (address) => {
        expect(strict.refusalOfAddress(address)).toBeNull();
      },
    );
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
      'fbff::1',
      // The neighbours of the refused blocks.
      '191.255.255.255',
      '192.0.1.255',
      '192.0.3.0',
      '198.17.255.255',
      '198.20.0.0',
      '198.51.99.255',
      '198.51.101.0',
      '203.0.112.255',
      '203.0.114.0',
      '2001:1::1',
      '2001:db9::1',
      '2001:3::1',
      '3ffe::1',
      '2003::1',
    ])('%s', (address) => expect(strict.refusalOfAddress(address)).toBeNull());
  });

  describe("refuses this machine's own addresses", () => {
    const own = new OwnAddresses(() => ['127.0.0.1', '::1', '8.8.4.4', '2606:4700::1', 'fe80::1', '192.0.2.7']);
    const onThisMachine = new EgressPolicy(NO_ALLOWED_HOSTS, own);

    it.each([
      ['8.8.4.4', "this machine's own"],
      ['::ffff:8.8.4.4', "this machine's own"],
      ['64:ff9b::808:404', "this machine's own"],
      ['2606:4700::1', "this machine's own"],
      ['2606:4700:0:0:0:0:0:1', "this machine's own"],
      ['fe80::1', "this machine's own"],
      ['192.0.2.7', "this machine's own"],
      ['127.0.0.1', 'a loopback'],
      ['::1', 'a loopback'],
    ])('%s is %s address', (address, kind) => {
      expect(onThisMachine.refusalOfAddress(address)).toBe(`${address} is ${kind} address`);
    });

    it('leaves the addresses of other machines alone', () => {
      expect(onThisMachine.refusalOfAddress('8.8.8.8')).toBeNull();
      expect(onThisMachine.refusalOfAddress('192.0.2.8')).toBe('192.0.2.8 is a documentation address');
    });

    it('allows an own address that OUTBOUND_ALLOWED_HOSTS lists', () => {
      const policy = new EgressPolicy(parseAllowedHosts('8.8.4.4,192.0.2.0/24').hosts, own);
      expect(policy.refusalOfAddress('8.8.4.4')).toBeNull();
      expect(policy.refusalOfAddress('192.0.2.7')).toBeNull();
      expect(policy.refusalOfAddress('2606:4700::1')).toBe("2606:4700::1 is this machine's own address");
    });

    it("reads the interfaces of the machine it runs on by default: every address but loopback is this machine's own", () => {
      const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).filter((a) => !a.internal).map((a) => a.address));
      expect(addresses.length).toBeGreaterThan(0);
      const policy = new EgressPolicy();
      for (const address of addresses) expect(policy.refusalOfAddress(address)).toBe(`${address} is this machine's own address`);
    });
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
      expect(policy.refusalOfAddress('2002:0a01:0009::')).toBeNull();
      expect(policy.refusalOfAddress('10.2.0.1')).toBe('10.2.0.1 is a private address');
      expect(policy.refusalOfAddress('fd00:1:ffff::1')).toBeNull();
      expect(policy.refusalOfAddress('fd00:2::1')).toBe('fd00:2::1 is a private address');
    });

    it('allows the documentation, benchmarking, reserved and Teredo ranges when listed', () => {
      const policy = allowing('192.0.2.0/24,198.18.0.0/15,240.0.0.0/4,2001::/32');
      for (const address of ['192.0.2.9', '198.19.0.1', '240.1.2.3', '::ffff:192.0.2.9', '2001::1']) expect(policy.refusalOfAddress(address)).toBeNull();
      expect(policy.refusalOfAddress('203.0.113.1')).toBe('203.0.113.1 is a documentation address');
    });

    it('allows an IPv6 form when the range listed is the IPv6 one that carries the address', () => {
      const policy = allowing('64:ff9b::/96');
      expect(policy.refusalOfAddress('64:ff9b::a00:1')).toBeNull();
      expect(policy.refusalOfAddress('10.0.0.1')).toBe('10.0.0.1 is a private address');
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
      ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1 is a loopback address'],
      ['http://[::FFFF:7F00:1]/', '::ffff:7f00:1 is a loopback address'],
      ['http://[::127.0.0.1]/', '::7f00:1 is a loopback address'],
      ['http://[64:ff9b::7f00:1]/', '64:ff9b::7f00:1 is a loopback address'],
      ['http://[64:ff9b::127.0.0.1]:8080/', '64:ff9b::7f00:1 is a loopback address'],
      ['http://[64:ff9b:1::169.254.169.254]/', '64:ff9b:1::a9fe:a9fe is a link-local address'],
      ['http://[2002:7f00:1::]/', '2002:7f00:1:: is a loopback address'],
      ['http://[2002:7f00:0001:0000::1]/', '2002:7f00:1::1 is a loopback address'],
      ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', '2001:0:4136:e378:8000:63bf:3fff:fdd2 is a Teredo address'],
      ['http://[2001:db8::1]/', '2001:db8::1 is a documentation address'],
      ['http://192.0.2.1/', '192.0.2.1 is a documentation address'],
      ['http://3221225985/', '192.0.2.1 is a documentation address'],
      ['http://0xc0.0.2.1/', '192.0.2.1 is a documentation address'],
      ['http://0300.0.2.1/', '192.0.2.1 is a documentation address'],
      ['http://192.0.2.010/', '192.0.2.8 is a documentation address'],
      ['http://0xc6336407/', '198.51.100.7 is a documentation address'],
      ['http://203.0.28929/', '203.0.113.1 is a documentation address'],
      ['http://198.18.1/', '198.18.0.1 is a benchmarking address'],
      ['http://192.0.0.8/', '192.0.0.8 is a reserved address'],
      ['http://4026531841/', '240.0.0.1 is a reserved address'],
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
