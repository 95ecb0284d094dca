// Credentials out of everything syncfile prints, logs or answers: the one place where they are
// redacted. Three kinds are taken out of any text passed through here: the password of a URL
// (`postgres://user:***@host`), even a URL no parser accepts (a proxy URL with a `/` in its
// password, a bad port); the value of a parameter that authorises on its own, in a URL's query
// or as `name=value` (`?password=`, `X-Signature=`, a libpq `password=…`), its name read
// percent-decoded; and the secrets the process was given (registered where they come in, as
// the server's and the client's options are read), wherever they appear, as written, percent-
// encoded or escaped for JSON: a driver's error that quotes its connection string, say.

/** What a password, or a secret the process was given, is replaced with. */
export const REDACTED_PASSWORD = "***";
/** What the value of a secret parameter is replaced with. */
export const REDACTED_PARAMETER = "[redacted]";

// a parameter authorises on its own when its name says password, secret, token, key,
// signature or credential (X-Amz-Signature, X-Amz-Credential, X-Amz-Security-Token, api_key,
// access_token, sslpassword, client_secret …), or is one of a few short spellings
const SECRET_NAME =
  /^(?:pass|pwd|sig|auth|authorization|key|(?:.*(?:passw|passwd|secret|token|signature|credential|apikey|api[-_.]key|accesskey|access[-_.]key|private[-_.]?key|session[-_.]?key).*))$/i;

// a URL's scheme and what follows up to a space, a quote or an angle bracket
const URL_IN_TEXT = /[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
// `name=value` after the start, a space, `?`, `&` or `;` (a query, a libpq connection string)
const PARAMETER = /(^|[\s?&;,])([^\s=?&;,"'<>]+)=([^\s&;#"'<>]*)/g;

const secrets = new Set<string>();
// the forms in which each secret is looked for, longest first (one that holds another goes first)
let forms: string[] = [];

/**
 * Registers `secret` (a password, a key) so that {@link redactText} takes it out of any text,
 * as written, percent-encoded or escaped for JSON. Values shorter than 4 characters are not
 * registered: taking every "ab" out of a log would say nothing and hide what it shows.
 */
export function addSecret(secret: string | null | undefined): void {
  if (!secret || secret.length < 4 || secrets.has(secret)) return;
  secrets.add(secret);
  const found = new Set<string>();
  for (const form of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]) {
    found.add(form);
    found.add(JSON.stringify(form).slice(1, -1));
  }
  forms = [...new Set([...forms, ...found])].sort((a, b) => b.length - a.length);
}

/**
 * Registers the password of `url` (and the values of its secret parameters) as secrets, so that
 * they are taken out of any text later, even of an error that quotes them without the URL.
 */
export function addSecretsOf(url: string | null | undefined): void {
  if (!url) return;
  const userinfo = userinfoOf(url);
  if (userinfo !== null) {
    const colon = userinfo.indexOf(":");
    if (colon >= 0) {
      const password = userinfo.slice(colon + 1);
      addSecret(password);
      addSecret(safeDecode(password));
    }
  }
  for (const match of url.matchAll(PARAMETER)) {
    if (isSecretName(match[2] ?? "") && match[3]) {
      addSecret(match[3]);
      addSecret(safeDecode(match[3]));
    }
  }
}

/**
 * `url` with its password and the values of its secret parameters redacted, for a message:
 * `postgres://user:***@db:5432/app?password=[redacted]`. Works on the text, so a URL that no
 * parser accepts is redacted too, and one that needs nothing redacted comes back unchanged.
 */
export function redactUrl(url: string): string {
  return redactParameters(redactUserinfo(url));
}

/**
 * `text` with every credential it holds redacted: the passwords and secret parameters of the
 * URLs in it, secret `name=value` pairs, and the secrets registered with {@link addSecret}.
 */
export function redactText(text: string): string {
  let out = text.includes("://") ? text.replace(URL_IN_TEXT, (url) => redactUserinfo(url)) : text;
  if (out.includes("=")) out = redactParameters(out);
  for (const form of forms) {
    if (out.includes(form)) out = out.split(form).join(REDACTED_PASSWORD);
  }
  return out;
}

/** Whether a parameter named `name` (percent-encoded or not) carries a credential. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(safeDecode(name));
}

function redactUserinfo(url: string): string {
  const userinfo = userinfoOf(url);
  if (userinfo === null) return url;
  const colon = userinfo.indexOf(":");
  if (colon < 0) return url;
  const start = url.indexOf("://") + 3;
  return `${url.slice(0, start + colon + 1)}${REDACTED_PASSWORD}${url.slice(start + userinfo.length)}`;
}

function redactParameters(text: string): string {
  return text.replace(PARAMETER, (whole, before: string, name: string, value: string) =>
    value !== "" && isSecretName(name) ? `${before}${name}=${REDACTED_PARAMETER}` : whole,
  );
}

/**
 * The userinfo of `url` (`user:password`), or null: what lies between `://` and the last `@`
 * before the query. The last `@`, because a password may hold `@` or `/` that its writer did
 * not encode (a parser would then take part of it for the host); a path that holds an `@` is
 * rare in a service's URL, and at worst hides a little more than the password.
 */
function userinfoOf(url: string): string | null {
  const start = url.indexOf("://");
  if (start < 0) return null;
  const rest = url.slice(start + 3);
  const query = rest.search(/[?#]/);
  const authority = query < 0 ? rest : rest.slice(0, query);
  const at = authority.lastIndexOf("@");
  return at < 0 ? null : authority.slice(0, at);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
