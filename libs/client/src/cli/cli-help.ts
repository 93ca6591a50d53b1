/** The command line's usage text, printed by `--help` and after a wrong command line. */
export const CLI_HELP = `Usage: punctual <command> [arguments] [options]

Signing (prints, sends nothing):
  sign METHOD PATH [BODY]     the four signature headers as curl arguments: -H X-Punctual-Key:… …
                              curl -X POST "$URL/actions" $(punctual sign POST /actions "$BODY") -d "$BODY"
  sign RPC PATTERN BODY       a whole signed message { headers, body } as JSON, for a message pattern

Actions (signed requests to the HTTP API; prints the JSON answer):
  create BODY                 create an action from its JSON body (- reads it from standard input)
                                [--idempotency-key KEY]
  get ID
  list                        [--status STATUS] [--action TYPE] [--limit N] [--cursor CURSOR]
  history ID                  [--limit N] [--cursor CURSOR]
  cancel ID                   [--note TEXT]
  pause ID                    [--note TEXT]
  resume ID
  skip ID                     [--count N]
  preview BODY                the times a create body would run at, one a line, in local time; nothing is stored
                                [--count N] [--tz ZONE]   (the machine's time zone by default)

Options:
  --url URL                   Punctual's address; PUNCTUAL_URL, else http://localhost:$PORT (3000 without PORT)
  --key-id ID                 the API key to sign with; PUNCTUAL_KEY_ID
  --secret SECRET             its secret; PUNCTUAL_SECRET (safer than a flag, which other users can see)
                              Without a secret, the key's entry in API_KEYS (keyId:secret,…), or its first key.
  -h, --help                  this help

A refusal prints the server's status and message and exits 1; a wrong command line exits 2.
`;
