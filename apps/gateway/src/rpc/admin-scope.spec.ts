import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/**
 * The admin RPC scope must be unreachable from merchant paths: only admin controllers (behind
 * AdminGuard) may inject the admin client, and the RPC module is the only place that builds one.
 */
describe('admin RPC scope', () => {
  it('is injected only by admin controllers guarded by AdminGuard', () => {
    const ADMIN_CLIENT = /ADMIN_(TRANSACTION_SERVICE|SPLIT_LEDGER_SERVICE|WEBHOOK_DISPATCHER)/;
    const users = sources(SRC).filter((f) => ADMIN_CLIENT.test(readFileSync(f, 'utf8')));
    const rel = users.map((f) => relative(SRC, f)).sort();
    expect(rel).toEqual([
      'callbacks/webhooks-admin.controller.ts',
      'reconcile/reconcile-admin.controller.ts',
      'refunds/refunds-admin.controller.ts',
      'rpc/rpc-client-pool.ts',
      'rpc/rpc.module.ts',
      'splits/settlement-admin.controller.ts',
    ]);
    for (const controller of rel.filter((f) => f.endsWith('.controller.ts'))) {
      expect(readFileSync(join(SRC, controller), 'utf8')).toMatch(/@UseGuards\(AdminGuard\)/);
    }
  });

  it("is produced only by the RPC module's admin pool", () => {
    const withAdminScope = sources(SRC).filter(
      (f) => /,\s*'admin'\)/.test(readFileSync(f, 'utf8')) && /RpcSigner|pool\(/.test(readFileSync(f, 'utf8')),
    );
    expect(withAdminScope.map((f) => relative(SRC, f))).toEqual(['rpc/rpc.module.ts']);
  });
});
