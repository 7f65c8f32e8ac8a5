package mcpcore

import "github.com/seed417024ea/mcpcore/internal/config"

// LevelNotice is the slog level of notice records: normal but significant
// events, between info and warning, as in syslog. slog has no such level of
// its own; [NewLogHandler] prints it as NOTICE.
const LevelNotice = config.LevelNotice
