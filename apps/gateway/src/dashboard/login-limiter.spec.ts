import { addressBucket } from './login-limiter';

describe('sign-in limiter: what one address is', () => {
  it('counts an IPv4 address as it is, IPv4-mapped ones included', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const bucket = '2001:db8:85a3:8d3::/64';
    expect(addressBucket('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe(bucket);
    expect(addressBucket('2001:0db8:85a3:08d3::1')).toBe(bucket);
    expect(addressBucket('2001:DB8:85A3:8D3:ffff::')).toBe(bucket);
    expect(addressBucket('2001:db8:85a3:8d3::1%eth0')).toBe(bucket);
    expect(addressBucket('2001:db8:85a3:8d4::1')).not.toBe(bucket);
    expect(addressBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
  });

  it('reads an embedded IPv4 tail as two groups, and counts malformed text as it is (never throws)', () => {
    expect(addressBucket('1::2:3:4:5.6.7.8')).toBe('1:0:0:2::/64');
    expect(addressBucket('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    for (const odd of ['1:2:3:4:5:6:7:8::', 'not an address', '::ffff:999.1.1.1', ''])
      expect(addressBucket(odd)).toBe(odd);
  });
});
