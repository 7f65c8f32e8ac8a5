package contract

import "strings"

// The text form of a tool failure: "Error: <message>", then
// "\n\nRecovery: <hint>" when there is a hint.
const (
	errorPrefix    = "Error: "
	recoveryPrefix = "\n\nRecovery: "
)

// Text returns the text a failed tool call carries in content[0].text, for
// models and clients that read text: "Error: <message>", then
// "\n\nRecovery: <hint>" when hint is not empty. It says what the call's
// structuredContent.error says, from its message and its
// data.recovery.hint.
func Text(message, hint string) string {
	if hint == "" {
		return errorPrefix + message
	}
	return errorPrefix + message + recoveryPrefix + hint
}

// ParseText is the inverse of [Text]: it returns the message and the hint of
// a failure's text. A text without the "Error: " prefix is all message; the
// hint is what follows the first "\n\nRecovery: ", or "" when there is none.
// A message that itself holds "\n\nRecovery: " does not read back whole:
// the text cannot tell it from a hint.
func ParseText(text string) (message, hint string) {
	message, hint, _ = strings.Cut(strings.TrimPrefix(text, errorPrefix), recoveryPrefix)
	return message, hint
}
