package mcperr

// The factories below are shorthands for [New] with a fixed code, for the
// failures a handler or service raises most. Codes without a factory
// (ParseError, MethodNotFound, InitializationFailed, UnknownError) are rare
// enough to spell out with New.

// InvalidParams returns an error with [CodeInvalidParams].
func InvalidParams(message string, opts ...Option) *Error {
	return New(CodeInvalidParams, message, opts...)
}

// InvalidRequest returns an error with [CodeInvalidRequest].
func InvalidRequest(message string, opts ...Option) *Error {
	return New(CodeInvalidRequest, message, opts...)
}

// NotFound returns an error with [CodeNotFound].
func NotFound(message string, opts ...Option) *Error {
	return New(CodeNotFound, message, opts...)
}

// Forbidden returns an error with [CodeForbidden].
func Forbidden(message string, opts ...Option) *Error {
	return New(CodeForbidden, message, opts...)
}

// Unauthorized returns an error with [CodeUnauthorized].
func Unauthorized(message string, opts ...Option) *Error {
	return New(CodeUnauthorized, message, opts...)
}

// ValidationError returns an error with [CodeValidationError].
func ValidationError(message string, opts ...Option) *Error {
	return New(CodeValidationError, message, opts...)
}

// Conflict returns an error with [CodeConflict].
func Conflict(message string, opts ...Option) *Error {
	return New(CodeConflict, message, opts...)
}

// RateLimited returns an error with [CodeRateLimited].
func RateLimited(message string, opts ...Option) *Error {
	return New(CodeRateLimited, message, opts...)
}

// Timeout returns an error with [CodeTimeout].
func Timeout(message string, opts ...Option) *Error {
	return New(CodeTimeout, message, opts...)
}

// ServiceUnavailable returns an error with [CodeServiceUnavailable].
func ServiceUnavailable(message string, opts ...Option) *Error {
	return New(CodeServiceUnavailable, message, opts...)
}

// ConfigurationError returns an error with [CodeConfigurationError].
func ConfigurationError(message string, opts ...Option) *Error {
	return New(CodeConfigurationError, message, opts...)
}

// InternalError returns an error with [CodeInternalError].
func InternalError(message string, opts ...Option) *Error {
	return New(CodeInternalError, message, opts...)
}

// SerializationError returns an error with [CodeSerializationError], for
// JSON, XML and other parser failures.
func SerializationError(message string, opts ...Option) *Error {
	return New(CodeSerializationError, message, opts...)
}

// DatabaseError returns an error with [CodeDatabaseError].
func DatabaseError(message string, opts ...Option) *Error {
	return New(CodeDatabaseError, message, opts...)
}

// RequestCancelled returns an error with [CodeRequestCancelled], for a caller
// that went away.
func RequestCancelled(message string, opts ...Option) *Error {
	return New(CodeRequestCancelled, message, opts...)
}
