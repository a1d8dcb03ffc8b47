/**
 * The API session of the pages Dictum serves (the console, the documentation page's login): the
 * token pair kept in the tab's session storage, every call made with the token, the pair
 * refreshed with the refresh token shortly before the access token expires (a refresh token works
 * once, so one refresh at a time), and the stepwise login of the API (user and password, then
 * client, role, organization and warehouse).
 */
export const API_BASE = '/api/v1';

export interface TokenPair {
  token: string;
  refresh_token: string;
  user: string;
  role?: string;
}

export interface Choice {
  id: number;
  name: string;
}

/** An answer of the API that was not 2xx, with the error body's title and detail. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
  ) {
    super(detail || title || `HTTP ${status}`);
  }
}

const claims = (token: string): { exp?: number; iat?: number } => {
  try {
    return JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    return {};
  }
};
const expiry = (token: string) => (claims(token).exp ?? 0) * 1000;
/** Refresh 30 s before expiry, or after two thirds of a shorter life. */
const margin = (token: string) => {
  const c = claims(token);
  return Math.min(30_000, Math.max(0, ((c.exp ?? 0) - (c.iat ?? 0)) * 1000) / 3);
};

export class TokenSession {
  #pair: TokenPair | null;
  #refreshing: Promise<string | null> | null = null;
  /** The first-step token while client, role, organization and warehouse are chosen. */
  #step: { token: string; user: string } | null = null;

  constructor(
    private readonly store: Storage,
    private readonly key: string,
    private readonly onLoggedOut: () => void = () => undefined,
  ) {
    this.#pair = JSON.parse(store.getItem(key) ?? 'null') as TokenPair | null;
    this.#schedule();
  }

  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Refreshes ahead of expiry, so that a page left open keeps its session (and a dead pair is dropped at once). */
  #schedule(): void {
    clearTimeout(this.#timer);
    const pair = this.#pair;
    if (!pair) return;
    const wait = Math.max(0, expiry(pair.token) - Date.now() - margin(pair.token));
    this.#timer = setTimeout(() => void this.freshToken().then(() => this.#schedule()), Math.min(wait, 2_147_483_647));
  }

  get pair(): TokenPair | null {
    return this.#pair;
  }

  #keep(p: TokenPair | null): void {
    this.#pair = p;
    if (p) this.store.setItem(this.key, JSON.stringify(p));
    else this.store.removeItem(this.key);
    this.#schedule();
  }

  /** A request to the API; `token` null sends none, undefined sends the session's (refreshed when due). */
  async call<T = any>(method: string, path: string, body?: unknown, token?: string | null): Promise<T> {
    const bearer = token === undefined ? await this.freshToken() : token;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    const res = await fetch(API_BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const answer = await res.json().catch(() => ({}));
    if (res.status === 401 && token === undefined && this.#pair) {
      this.#keep(null);
      this.onLoggedOut();
    }
    if (!res.ok) throw new ApiError(res.status, answer.title ?? '', answer.detail ?? '');
    return answer as T;
  }

  async freshToken(): Promise<string | null> {
    const pair = this.#pair;
    if (!pair) return null;
    if (expiry(pair.token) - Date.now() > margin(pair.token)) return pair.token;
    this.#refreshing ??= this.call<{ token: string; refresh_token: string }>('POST', '/auth/refresh', { refresh_token: pair.refresh_token }, null)
      .then((p) => {
        this.#keep({ ...pair, token: p.token, refresh_token: p.refresh_token });
        return p.token;
      })
      .catch(() => {
        this.#keep(null);
        this.onLoggedOut();
        return null;
      })
      .finally(() => {
        this.#refreshing = null;
      });
    return this.#refreshing;
  }

  /** First step: the clients to choose from, or none when the API logged in at once. */
  async start(user: string, password: string): Promise<Choice[] | null> {
    const answer = await this.call('POST', '/auth/tokens', { userName: user, password }, null);
    if (answer.refresh_token) {
      this.#keep({ token: answer.token, refresh_token: answer.refresh_token, user });
      return null;
    }
    this.#step = { token: answer.token, user };
    return answer.clients ?? [];
  }

  #stepToken(): string {
    if (!this.#step) throw new ApiError(401, 'Not logged in', 'Log in with user and password first');
    return this.#step.token;
  }

  async roles(client: number): Promise<Choice[]> {
    return (await this.call('GET', `/auth/roles?client=${client}`, undefined, this.#stepToken())).roles ?? [];
  }

  async organizations(client: number, role: number): Promise<Choice[]> {
    return (await this.call('GET', `/auth/organizations?client=${client}&role=${role}`, undefined, this.#stepToken())).organizations ?? [];
  }

  async warehouses(client: number, role: number, org: number): Promise<Choice[]> {
    const q = `client=${client}&role=${role}&organization=${org}`;
    return (await this.call('GET', `/auth/warehouses?${q}`, undefined, this.#stepToken()).catch(() => ({ warehouses: [] }))).warehouses ?? [];
  }

  /** Last step: the chosen client, role, organization (and warehouse) make the session's token pair. */
  async finish(choice: { clientId: number; roleId: number; organizationId: number; warehouseId?: number }, roleName: string): Promise<void> {
    const answer = await this.call('PUT', '/auth/tokens', choice, this.#stepToken());
    this.#keep({ token: answer.token, refresh_token: answer.refresh_token, user: this.#step!.user, role: roleName });
    this.#step = null;
  }

  cancel(): void {
    this.#step = null;
  }

  async logout(): Promise<void> {
    const token = this.#pair?.token;
    this.#keep(null);
    if (token) await this.call('POST', '/auth/logout', { token }, token).catch(() => undefined);
  }
}
