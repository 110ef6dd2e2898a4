import { callbackUrlProblem, isForbiddenAddress } from './ssrf';

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254', // cloud metadata
    '100.64.0.1', // carrier-grade NAT
    '0.0.0.0',
    '192.0.2.10', // documentation
    '198.18.0.1', // benchmarking
    '224.0.0.1', // multicast
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '2001:db8::1',
    '::ffff:127.0.0.1', // IPv4-mapped loopback
    '::ffff:7f00:1', // the same, hex form
    '::ffff:10.1.2.3',
    '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
    '::7f00:1', // IPv4-compatible loopback
    '::ffff:0:7f00:1', // IPv4-translated loopback
    'not-an-ip',
  ])('refuses %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2a00:1450:4001:80b::200e',
  ])('allows the public address %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe('callbackUrlProblem', () => {
  it('accepts an https URL', () => {
    expect(callbackUrlProblem('https://shop.example.com/webhooks?x=1')).toBeNull();
  });

  it.each([
    ['http://shop.example.com/hook', 'must use https://'],
    ['ftp://shop.example.com/hook', 'must use https://'],
    ['https://user:pass@shop.example.com/hook', 'must not contain credentials'],
    ['shop.example.com/hook', 'must be a valid URL'],
    [`https://shop.example.com/${'a'.repeat(2100)}`, 'must be at most 2048 characters'],
  ])('refuses %s', (url, problem) => {
    expect(callbackUrlProblem(url)).toBe(problem);
  });
});
