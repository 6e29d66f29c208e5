import { describe, expect, it } from 'vitest';
import { isRootUser, loginUser } from './docker-images';

const BASE = ['root:x:0:0:root:/root:/bin/bash', 'daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin'];

describe('loginUser', () => {
  it('prefers the dockhand user', () => {
    const passwd = [
      ...BASE,
      'pn:x:1000:1000::/home/pn:/bin/bash',
      'dockhand:x:1001:1001::/home/dockhand:/bin/bash',
    ];
    expect(loginUser(passwd.join('\n'))).toBe('dockhand');
  });

  it('else takes uid 1000, else the lowest login uid', () => {
    expect(loginUser([...BASE, 'pn:x:1000:1000::/home/pn:/bin/bash'].join('\n'))).toBe('pn');
    expect(loginUser([...BASE, 'b:x:1200:1200::/h:/bin/sh', 'a:x:1100:1100::/h:/bin/zsh'].join('\n'))).toBe(
      'a',
    );
  });

  it('ignores system accounts, nobody and accounts without a login shell', () => {
    const passwd = [
      ...BASE,
      'nobody:x:65534:65534::/nonexistent:/usr/sbin/nologin',
      'svc:x:1000:1000::/:/bin/false',
    ];
    expect(loginUser(passwd.join('\n'))).toBeNull();
  });
});

describe('isRootUser', () => {
  it('recognises root by name or uid, with or without a group', () => {
    expect(isRootUser('root')).toBe(true);
    expect(isRootUser('0:0')).toBe(true);
    expect(isRootUser('1000')).toBe(false);
    expect(isRootUser('rooty')).toBe(false);
  });
});
