package mcpcore

import (
	"log/slog"

	"github.com/seed417024ea/mcpcore/internal/config"
)

// LevelNotice is the slog level of notice records: normal but significant
// events, between info and warning, as in syslog. slog has no such level of
// its own; [NewLogHandler] prints it as NOTICE.
const LevelNotice = config.LevelNotice

// Level returns the slog level of records logged at this severity; the
// empty severity, like any name that is not a level, is error.
func (s Severity) Level() slog.Level {
	if level, ok := config.ParseLevel(string(s)); ok {
		return level
	}
	return slog.LevelError
}
