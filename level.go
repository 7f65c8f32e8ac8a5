package mcpcore

import "log/slog"

// LevelNotice is the slog level of notice records: normal but significant
// events, between info and warning, as in syslog. slog has no such level of
// its own; [NewLogHandler] prints it as NOTICE.
const LevelNotice = slog.Level(2)

// Level returns the slog level of records logged at this severity.
func (s Severity) Level() slog.Level {
	switch s {
	case SeverityDebug:
		return slog.LevelDebug
	case SeverityInfo:
		return slog.LevelInfo
	case SeverityNotice:
		return LevelNotice
	case SeverityWarning:
		return slog.LevelWarn
	}
	return slog.LevelError
}
