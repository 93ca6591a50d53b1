/**
 * Why a URL given for Punctual to call is refused for holding user information
 * (`https://user:pass@host/`), or null. Such credentials would be stored and shown with the URL;
 * a header (`Authorization`) carries them without that.
 */
export function userInfoProblem(url: URL): string | null {
  return url.username || url.password ? 'must not hold user information (credentials belong in a header)' : null;
}
