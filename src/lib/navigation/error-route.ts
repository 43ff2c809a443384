/**
 * The rules of the /error/{code} route (SPEC §2, §5, §8), as a pure function the page and the
 * tests share.
 */
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  100: 'Continue',
  101: 'Switching Protocols',
  102: 'Processing',
  103: 'Early Hints',
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  205: 'Reset Content',
  206: 'Partial Content',
  207: 'Multi-Status',
  208: 'Already Reported',
  226: 'IM Used',
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  305: 'Use Proxy',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  418: "I'm a Teapot",
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  506: 'Variant Also Negotiates',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  510: 'Not Extended',
  511: 'Network Authentication Required',
};

export const JOKE_STATUS = 233;
export const JOKE_MESSAGE = '乐';
export const UNSUPPORTED_STATUS = 601;

export type ErrorVariant = 'not-found' | 'forbidden' | 'bad-gateway' | 'redirect' | 'generic';

export type ErrorRouteOutcome =
  | { kind: 'show' } // /error with no code: the page shows normally
  | { kind: 'redirect'; to: string } // 601 -> /unsupported
  | { kind: 'abort'; status: number; message: string };

export function pageNotFoundMessage(path: string): string {
  return `Page Not Found: ${path}`;
}

/** Decides what /error/{param} does. `path` is the request path, for the not-found message. */
export function resolveErrorRoute(param: string | undefined, path: string): ErrorRouteOutcome {
  if (param === undefined || param === '') return { kind: 'show' };
  // The parameter must be a finite number other than 404; anything else fails validation.
  const code = /^-?\d+(\.\d+)?$/.test(param) ? Number(param) : Number.NaN;
  if (!Number.isFinite(code) || code === 404) return { kind: 'abort', status: 404, message: pageNotFoundMessage(path) };
  if (code === UNSUPPORTED_STATUS) return { kind: 'redirect', to: '/unsupported' };
  if (code === JOKE_STATUS) return { kind: 'abort', status: JOKE_STATUS, message: JOKE_MESSAGE };
  return { kind: 'abort', status: code, message: STATUS_TEXT[code] ?? STATUS_TEXT[500] };
}

/** Which error layout a status shows (SPEC §2). */
export function errorVariant(status: number): ErrorVariant {
  switch (status) {
    case 404:
    case JOKE_STATUS:
      return 'not-found';
    case 403:
      return 'forbidden';
    case 502:
      return 'bad-gateway';
    case 301:
      return 'redirect';
    default:
      return 'generic';
  }
}

/**
 * The HTTP status the response carries. A real error status (400-599) is sent as is; the
 * joke and the missing-video pages are not-found pages (404), since a 2xx or a 301 without a
 * Location would let caches and crawlers treat them as content or a redirect; anything else is a 500.
 */
export function httpStatusFor(status: number): number {
  if (Number.isInteger(status) && status >= 400 && status <= 599) return status;
  if (status === JOKE_STATUS || status === 301) return 404;
  return 500;
}

/**
 * The status the page shows in large type and in its title. The missing-video page keeps its
 * route (/error/301, SPEC §2) but is a not-found page for the visitor as for the HTTP answer:
 * "301 Moved Permanently" would tell them the video moved somewhere.
 */
export function shownStatus(status: number): number {
  return status === 301 ? 404 : status;
}

/** The page title: the shown status code's standard text. */
export function errorTitle(status: number): string {
  const shown = shownStatus(status);
  return `${shown} ${STATUS_TEXT[shown] ?? STATUS_TEXT[500]}`;
}

/**
 * The error layouts built as static HTML for every locale (src/pages/[...locale]/error/[status].astro):
 * the statuses the site itself sends visitors to. Any other /error/{code} renders on demand.
 */
export const PRERENDERED_ERROR_STATUSES = [301, 403, 404, 500, 502] as const;

/**
 * The HTTP status a prerendered error page is served with (server/site), or null when the route is
 * not one: a static file would otherwise go out as 200, and an error page must keep its status.
 */
export function prerenderedErrorStatus(route: string): number | null {
  const match = /^\/error\/(\d{3})\/?$/.exec(route);
  const code = match ? Number(match[1]) : Number.NaN;
  return (PRERENDERED_ERROR_STATUSES as readonly number[]).includes(code) ? httpStatusFor(code) : null;
}
