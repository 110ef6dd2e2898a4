import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ErrorCodes } from '@payments/contracts';
import { GatewayConfig } from '../config/gateway.config';
import { ApiException } from '../http/api-exception';
import { requestPath, type ApiReply, type ApiRequest } from '../http/http-types';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

interface Built {
  index: Buffer;
  /** `/dashboard/assets/<name>` → its bytes: only files the build wrote can be answered. */
  assets: Map<string, { body: Buffer; type: string }>;
}

/** The built dashboard (Vite's output), read once into memory: a few hundred KiB. Null when not built. */
function load(dir: string): Built | null {
  if (!existsSync(join(dir, 'index.html'))) return null;
  const assets = new Map<string, { body: Buffer; type: string }>();
  const assetDir = join(dir, 'assets');
  if (existsSync(assetDir)) {
    for (const name of readdirSync(assetDir))
      assets.set(`/dashboard/assets/${name}`, {
        body: readFileSync(join(assetDir, name)),
        type: TYPES[extname(name)] ?? 'application/octet-stream',
      });
  }
  return { index: readFileSync(join(dir, 'index.html')), assets };
}

/**
 * Serves the dashboard's pages under /dashboard: hashed assets (cached for a year), and index.html
 * for every other path so deep links (/dashboard/payments/txn_…) open the right page. The
 * Content-Security-Policy (request-hooks.ts) allows only these script files, no inline script.
 */
@ApiExcludeController()
@Controller('dashboard')
export class DashboardPagesController {
  private readonly built: Built | null;

  constructor(@Inject(GatewayConfig) config: GatewayConfig) {
    // dist/apps/gateway/src/dashboard → dist/apps/dashboard
    this.built = load(
      config.DASHBOARD_DIR ? resolve(config.DASHBOARD_DIR) : resolve(__dirname, '..', '..', '..', 'dashboard'),
    );
  }

  @Get()
  index(@Req() req: ApiRequest, @Res() reply: ApiReply): void {
    this.page(req, reply);
  }

  @Get('*')
  page(@Req() req: ApiRequest, @Res() reply: ApiReply): void {
    const path = requestPath(req);
    if (/^\/dashboard\/api(\/|$)/i.test(path))
      throw new ApiException(ErrorCodes.NotFound, `no route ${req.method} ${path}`);
    if (!this.built)
      throw new ApiException(
        ErrorCodes.ServiceUnavailable,
        'the dashboard is not built on this server (npm run build builds it)',
      );
    const asset = this.built.assets.get(path);
    if (asset) {
      void reply.header('cache-control', 'public, max-age=31536000, immutable').type(asset.type).send(asset.body);
      return;
    }
    if (path.startsWith('/dashboard/assets/')) throw new ApiException(ErrorCodes.NotFound, `no file ${path}`);
    void reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(this.built.index);
  }
}
