/**
 * The browser's client, derived from the route table: `call('GET video/home', { page: 2 })`.
 * The key names the method and path, the table's schemas type the input and the answer. Only
 * types are imported from the table, so zod and the table never reach the bundle.
 */
import { apiUrl, request, type Query, type RequestOptions } from './http.ts';
import { splitRouteKey, type InputOf, type OutputOf, type StreamRouteOf } from './route.ts';
import type { ApiRoute, RouteTable as Table } from './routes/index.ts';

export type { ApiRoute };
/** What a call sends. */
export type ApiInput<K extends ApiRoute> = InputOf<Table[K]>;
/** What a call answers on success (a failure throws HttpError with the server's code and message). */
export type ApiOutput<K extends ApiRoute> = OutputOf<Table[K]>;

export type CallOptions = Omit<RequestOptions, 'method' | 'query' | 'body'>;
type CallArgs<K extends ApiRoute> =
  undefined extends ApiInput<K>
    ? [input?: ApiInput<K>, options?: CallOptions]
    : [input: ApiInput<K>, options?: CallOptions];

/** Calls one endpoint of the table: a GET sends its input as the query, the rest as a JSON body. */
export function call<K extends ApiRoute>(route: K, ...[input, options]: CallArgs<K>): Promise<ApiOutput<K>> {
  const [method, path] = splitRouteKey(route);
  const sent = method === 'GET' ? { query: input as Query | undefined } : { body: input };
  return request<ApiOutput<K>>(path, { ...options, method, ...sent });
}

/** The entries that answer a stream of Server-Sent Events. */
export type StreamRoute = StreamRouteOf<Table> & ApiRoute;

/** The address an EventSource opens for a stream entry of the table (GET, its input as the query). */
export function streamUrl<K extends StreamRoute>(route: K, input: ApiInput<K>): string {
  return apiUrl(splitRouteKey(route)[1], input as Query);
}
