// Package credential defines an Analyzer that reports credentials written
// into the text an mcpcore server sends.
//
// # Analyzer mcpcredential
//
// mcpcredential: report credentials written into the text an mcpcore server sends
//
// The framework sends what the author wrote as written: a contract's When
// and Recovery (published in tools/list, and sent as the hint of
// ctx.RecoveryFor), the message given to ctx.Fail or to an mcperr
// factory, a hint given to mcperr.WithRecovery, the data given to
// mcperr.WithData, an elicitation's message. Only text that comes from
// elsewhere (services, upstream bodies, causes) is scrubbed of the secrets
// it holds. So a credential typed into one of those places reaches every
// client; the analyzer reports it before the server is built.
//
// Whether a text holds a credential is decided by the runtime's own rules,
// the scrubber of mcpcore/internal/redact: the text is reported when the
// scrubber would change it. Build time and run time agree on what is a
// credential (a JWT, a bearer token, a GitHub, AWS, Slack or Stripe key, a
// URL with a password, a PEM private key, …), and an ordinary sentence that
// uses the words password, token or key is not one.
//
// # no-credential-literal
//
// Level error. A credential written in the source, in a text the server
// sends or logs. Wrong:
//
//	var expired = mcpcore.Failure{Reason: "token_expired", Code: mcperr.CodeUnauthorized,
//		When:     "The catalog's session expired",
//		Recovery: "Call login again with the token ghp_8Kq2vN3xR7mT1pL9wZ4cY6bH0sJ5dF2gA8eQ"}
//
// Right:
//
//	var expired = mcpcore.Failure{Reason: "token_expired", Code: mcperr.CodeUnauthorized,
//		When:     "The catalog's session expired",
//		Recovery: "Call login again, then repeat this call with the token it returns."}
//
// The finding names the place and the length of the value, and shows at
// most its first four characters, never the secret. It offers no fix:
// what replaces a secret is the author's call, and a secret that was in
// the source must be rotated anyway.
//
// The texts read are a Failure literal's When and Recovery, wherever the
// literal stands (a package variable, a contract's element, another
// package's shared contract, which is reported in that package); the
// message of ctx.Fail, mcperr.New and every mcperr factory; the hint of
// mcperr.WithRecovery; the keys and string values of a literal given to
// mcperr.WithData, at any depth; the message of mcpcore.Elicit; the Prompt
// and SystemPrompt of a SamplingRequest literal; and, though the runtime
// scrubs them, the message of ctx.Progress and the message and string
// attributes of a record logged through ctx.Logger() or
// mcpcore.Logger(ctx) (also after With, or through a variable).
//
// A text is read when it is a constant (a literal, a constant of this or
// another package, a concatenation of constants), and also when parts of
// it are known only at run time: a concatenation, or fmt.Sprintf with a
// constant format. The run-time parts then stand as a placeholder, and the
// finding needs a word of the source of 8 bytes or more in what the
// scrubber would replace, so that fmt.Sprintf("token %s", tok) and
// "Authorization: Bearer " + tok, whose credential arrives at run time,
// are not reported.
//
// Not read: a text built in a variable or returned by a function, the data
// of mcperr.WithData given as a variable, an unkeyed Failure literal, and a
// verb of fmt.Sprintf with flags, a width or an argument index, which
// stands as a placeholder.
package credential
