// The proxy a request goes through, from the environment as curl and most tools read it:
// HTTPS_PROXY / HTTP_PROXY / ALL_PROXY by the URL's scheme, NO_PROXY for the hosts that go
// direct (proxy-from-env reads them, any case). An https URL is tunnelled with CONNECT
// (https-proxy-agent); an http one is sent to the proxy whole (http-proxy-agent).

import type { Agent } from "node:http";
import { HttpProxyAgent } from "http-proxy-agent";
import { HttpsProxyAgent } from "https-proxy-agent";
import { getProxyForUrl } from "proxy-from-env";
import { addSecretsOf, redactUrl } from "syncfile/internal/text/redact.js";

const agents = new Map<string, Agent>();
/** What each agent goes through, for messages: the proxy's URL, redacted, and its variable. */
const proxies = new WeakMap<Agent, string>();

/** The proxy `agent` sends through, as a message names it: `http://proxy:3128 (HTTP_PROXY)`. */
export function proxyOf(agent: Agent): string | undefined {
  return proxies.get(agent);
}

/** The agent that sends a request for `url` through the environment's proxy; undefined: direct. */
export function proxyAgentFor(url: URL): Agent | undefined {
  const proxy = getProxyForUrl(url);
  if (proxy === "") return undefined;
  const key = `${url.protocol} ${proxy}`;
  let agent = agents.get(key);
  if (agent === undefined) {
    addSecretsOf(proxy.includes("://") ? proxy : `http://${proxy}`);
    let target: URL;
    try {
      target = new URL(proxy.includes("://") ? proxy : `http://${proxy}`);
    } catch {
      throw new ProxyError(
        `the proxy ${JSON.stringify(redactUrl(proxy.includes("://") ? proxy : `http://${proxy}`))} of the environment (${variableFor(url)}) is not a URL such as http://proxy.example.com:3128`,
      );
    }
    agent =
      url.protocol === "https:"
        ? new HttpsProxyAgent(target, { keepAlive: true })
        : new HttpProxyAgent(target, { keepAlive: true });
    agents.set(key, agent);
    proxies.set(
      agent,
      `${redactUrl(proxy.includes("://") ? proxy : `http://${proxy}`)} (${variableFor(url)})`,
    );
  }
  return agent;
}

/** The environment's proxy setting cannot be used. */
export class ProxyError extends Error {
  override readonly name = "ProxyError";
}

function variableFor(url: URL): string {
  return url.protocol === "https:" ? "HTTPS_PROXY" : "HTTP_PROXY";
}
