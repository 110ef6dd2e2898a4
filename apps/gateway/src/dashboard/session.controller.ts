import { Controller, Get, HttpCode, Post, Put, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ErrorCodes } from '@payments/contracts';
import { rootLogger } from '@payments/platform';
import { ApiException } from '../http/api-exception';
import { header, type ApiReply, type ApiRequest } from '../http/http-types';
import { Audit } from './audit';
import { LoginDto, ModeDto } from './dashboard.requests';
import { ValidBody } from '../http/request-validation';
import { Allows, AnyMode, DashboardGuard } from './dashboard.guard';
import { presentSession, type SessionAnswer } from './dashboard.presenter';
import { LoginLimiter } from './login-limiter';
import { dummyHash, verifyPassword } from './passwords';
import { clearSessionCookie, setSessionCookie } from './session-cookie';
import { SessionStore } from './session-store';
import { DashboardUserStore } from './user-store';

const WRONG = 'wrong e-mail or password';

/**
 * Sign-in has no CSRF token yet (there is no session), so it takes JSON only, which a form on
 * another site cannot send without a CORS preflight, and refuses what the browser says comes from
 * another site (Sec-Fetch-Site, or an Origin that is not this host).
 */
function refuseCrossSite(req: ApiRequest): void {
  const type = header(req, 'content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    throw new ApiException(ErrorCodes.ValidationError, 'sign-in takes a JSON body (Content-Type: application/json)', [
      { field: 'Content-Type', message: 'must be application/json' },
    ]);
  }
  // Browsers since 2020–2023 send Sec-Fetch-Site; older ones are judged by Origin against the
  // host the request was sent to (a proxy in front may name it in X-Forwarded-Host).
  const site = header(req, 'sec-fetch-site');
  const origin = header(req, 'origin');
  // X-Forwarded-Host may list one host per proxy: any of them is where the request was sent.
  const hosts = [header(req, 'host'), ...(header(req, 'x-forwarded-host')?.split(',') ?? [])].flatMap((h) =>
    h?.trim() ? [h.trim().toLowerCase()] : [],
  );
  const crossSite =
    site !== undefined
      ? site !== 'same-origin' && site !== 'none'
      : origin !== undefined && !hosts.includes(hostOf(origin) ?? '');
  if (crossSite) throw new ApiException(ErrorCodes.Forbidden, 'sign in from the dashboard itself');
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Sign-in, the session, the test/live switch and sign-out. */
@ApiExcludeController()
@Controller('dashboard/api')
export class SessionController {
  constructor(
    private readonly users: DashboardUserStore,
    private readonly sessions: SessionStore,
    private readonly limiter: LoginLimiter,
    private readonly audit: Audit,
  ) {}

  /**
   * The same answer, after about the same time, for an unknown e-mail and a wrong password: an
   * unknown e-mail is checked against a dummy hash. The body must be JSON (a cross-site form
   * cannot send it), so another site cannot sign a visitor in to an account of its choosing.
   */
  @Post('login')
  @HttpCode(200)
  async login(
    @Req() req: ApiRequest,
    @Res({ passthrough: true }) reply: ApiReply,
    @ValidBody(LoginDto) body: LoginDto,
  ): Promise<SessionAnswer> {
    refuseCrossSite(req);
    const keys = this.limiter.keys(body.email, req.ip);
    await this.limiter.take(keys);
    const found = await this.users.forLogin(body.email);
    const ok = await verifyPassword(body.password, found?.passwordHash ?? (await dummyHash()));
    if (!found || !ok) {
      // Not awaited: a known account's refusal must not take longer than an unknown one's.
      if (found)
        this.audit
          .recordFor(req, found.user, 'login.failed')
          .catch((err) => rootLogger().error({ err }, 'audit record failed'));
      throw new ApiException(ErrorCodes.InvalidCredentials, WRONG);
    }
    await this.limiter.giveBack(keys);
    const { token, session } = await this.sessions.create(found.user.id, found.user.business_id);
    await this.audit.recordFor(req, found.user, 'login');
    setSessionCookie(req, reply, token);
    return presentSession(found.user, session);
  }

  @Get('session')
  @UseGuards(DashboardGuard)
  @Allows('payments.read')
  session(@Req() req: ApiRequest): SessionAnswer {
    const d = req.dashboard!;
    return presentSession(d.user, d.session);
  }

  /** The test/live switch: every page then shows that mode's data. */
  @Put('session/mode')
  @UseGuards(DashboardGuard)
  @Allows('payments.read')
  @AnyMode()
  async setMode(@Req() req: ApiRequest, @ValidBody(ModeDto) { mode }: ModeDto): Promise<SessionAnswer> {
    const d = req.dashboard!;
    const session = { ...d.session, mode };
    await this.sessions.save(d.token, session);
    req.dashboard = { ...d, session };
    await this.audit.record(req, 'mode.switch', null, { to: mode });
    return presentSession(d.user, session);
  }

  @Post('logout')
  @HttpCode(200)
  @UseGuards(DashboardGuard)
  @AnyMode()
  async logout(
    @Req() req: ApiRequest,
    @Res({ passthrough: true }) reply: ApiReply,
  ): Promise<{ result: 'success'; message: string }> {
    await this.audit.record(req, 'logout', null);
    await this.sessions.destroy(req.dashboard!.token);
    clearSessionCookie(req, reply);
    return { result: 'success', message: 'Signed out' };
  }
}
