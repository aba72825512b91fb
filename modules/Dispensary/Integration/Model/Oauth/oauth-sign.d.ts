// oauth-sign ships no types; only what the verifier calls.
declare module 'oauth-sign' {
  export function sign(
    signatureMethod: string,
    httpMethod: string,
    baseUri: string,
    params: Record<string, string | string[]>,
    consumerSecret: string,
    tokenSecret: string,
  ): string;
  const oauthSign: { sign: typeof sign };
  export default oauthSign;
}
