// proxy-from-env ships no types: its one function, as its README gives it.
declare module "proxy-from-env" {
  /** The proxy for `url` from HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY (any case); "" for none. */
  export function getProxyForUrl(url: string | URL): string;
}
