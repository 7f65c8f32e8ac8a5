package mcpcore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/fanout"
	"github.com/seed417024ea/mcpcore/internal/httpserve"
	"github.com/seed417024ea/mcpcore/internal/redact"
	"github.com/seed417024ea/mcpcore/internal/repeats"
	"github.com/seed417024ea/mcpcore/mcperr"
)

// Info names and describes a server to its clients.
type Info struct {
	// Name and Version identify the server in the initialize handshake.
	Name    string
	Version string
	// Title is an optional display name.
	Title string
	// Instructions tell clients (and models) how to use the server.
	Instructions string
}

// ServerOptions tune a [Server]. The zero value, or nil, is a good default.
type ServerOptions struct {
	// Config is the server's settings (see [Config]); its zero value is
	// the defaults. NewServer reads no environment: package
	// github.com/seed417024ea/mcpcore/app fills Config from it.
	Config Config
	// HTTPAuth authenticates the callers of the HTTP endpoint (see
	// [HTTPAuth]): package github.com/seed417024ea/mcpcore/mcphttp builds
	// the one MCP_AUTH_MODE asks for, and package app passes it. Nil lets
	// every caller in: package app then listens on a loopback host only,
	// unless told that something in front authenticates
	// (MCP_AUTH_ALLOW_UNAUTHENTICATED).
	HTTPAuth HTTPAuth
	// Secrets are values the server holds that must never leave the
	// process, such as the API key of an upstream its tools call: no
	// pattern can tell that an upstream's "the key abc… is not allowed"
	// quotes it, but the server can once told. From NewServer on, each is
	// replaced by [REDACTED] wherever it appears, whatever surrounds it,
	// as it is and in its JSON-escaped, URL-escaped and base64 forms, in
	// every byte the process sends over stdio and Streamable HTTP
	// (results, errors, notifications, progress, log notifications), in
	// every log record of the server's logger, and in the spans it
	// records. NewServer adds the secrets of Config itself: the
	// StateKeys (package mcphttp keeps the key of MCP_AUTH_MODE=jwt). Package app adds
	// those of the environment here (the password of MCP_REDIS_URL, the
	// values of the variables MCP_SECRET_VARS names and the credentials
	// in the OTLP exporters' headers). A service that reads its own
	// configuration adds its secrets with
	// [mcperr.KeepSecret]. A value shorter than 8 bytes is refused, and
	// NewServer fails with a ConfigurationError saying why: a value that
	// short turns up by chance in ordinary text, which masking would
	// alter. Secrets are kept for the life of the process, by every
	// server in it.
	Secrets []string
	// Logger receives the server's records. When nil, the server logs to
	// stderr (stdout belongs to the stdio transport) at Config.LogLevel, in
	// the format of Config.LogJSON. Either way, every record is redacted
	// first: the values of sensitive keys (password, token, apiKey,
	// authorization, … at any depth: groups, maps, structs) become
	// [REDACTED], and secrets in text (key=value pairs, URL credentials,
	// bearer tokens) are scrubbed.
	Logger *slog.Logger
	// ShutdownTimeout bounds how long Serve, and package app's Run over
	// HTTP, as they stop, wait for in-flight calls before cancelling them. Zero
	// means 10 seconds. ([Server.Shutdown] takes its bound from its
	// context instead.)
	ShutdownTimeout time.Duration
	// RepeatWindow is how long, after the first record of a kind of
	// failure (same definition, code, reason and panic site), the repeats
	// of each distinct record (same message) are counted rather than
	// logged, and the distinct messages of the kind bounded (10 a window,
	// the rest counted). Zero means [DefaultRepeatWindow]; a negative value
	// logs every failure.
	RepeatWindow time.Duration
	// Observer is told of every call and session, to record their
	// metrics and spans (see [Observer]): mcpotel.New of package
	// github.com/seed417024ea/mcpcore/mcpotel records them with
	// OpenTelemetry, and package app builds that one from the OTEL_*
	// variables. When nil, nothing is recorded and the call path pays
	// nothing for it.
	Observer Observer
	// Interceptors wrap the handler of every tool, resource and prompt,
	// the first outermost (see [Interceptor]).
	Interceptors []Interceptor
	// Bus carries the notifications this server raises to the replicas
	// of its fleet, and theirs to its subscribers (see [fleet.Bus]); the
	// server delivers to its own subscribers first either way. Limiter
	// counts the calls of definitions with a [RateLimit]. When nil, the
	// server has no bus and counts its quotas in its own process. Package
	// app opens them from MCP_REDIS_URL, and its start-up line over HTTP
	// names them by their String method when they have one. The server stops listening
	// to the bus as it shuts down; closing them is the program's.
	Bus     fleet.Bus
	Limiter fleet.Limiter
	// Tasks stores the tasks of the tools whose calls may run as tasks
	// (see [TaskSupport]), where tasks/get, tasks/update and tasks/cancel
	// find them. When nil, and a tool has a Task mode, the server keeps
	// them in its own process (fleet.NewLocalTasks), which is right for
	// stdio and one process; replicas behind a balancer share one, so
	// that any of them answers for a task.
	Tasks fleet.TaskStore
	// Catalog keeps which definitions the fleet has switched off (see
	// [Server.SetEnabled]). When nil, the server keeps that in its own
	// process (fleet.LocalCatalog); package app gives it the Redis one
	// with MCP_REDIS_URL.
	Catalog fleet.Catalog
	// Visible decides, for each caller, whether it sees a definition:
	// one it does not see is left out of every list it asks for, and its
	// call, get or read is answered exactly as one of a definition the
	// server does not have. It is asked once for each definition of each
	// list and each call, so it must be quick. Nil shows every enabled
	// definition to every caller. A caller's view changing is not
	// notified: list_changed follows [Server.SetEnabled].
	Visible VisibleFunc
}

// A Definition is something a [Server] serves: a [Tool], a [Resource] or a
// [Prompt].
type Definition interface {
	register(s *Server) error
}

// A Server serves tools, resources and prompts over MCP, with the error
// behaviour of the package documentation.
type Server struct {
	info         Info
	interceptors []Interceptor
	cfg          Config
	logger       *slog.Logger
	shutdown     time.Duration
	mcp          *mcp.Server
	inflight     *inflight
	repeats      *repeats.Collapser
	observer     Observer  // nil: nothing is recorded
	transport    string    // "stdio" or "http", as served; for network.transport
	stateKeys    stateKeys // sign and verify requestState (see statekeys.go)
	// maxResult bounds the bytes of one answer (see
	// Config.MaxResultBytes); zero means no bound.
	maxResult int64
	// bodyTimeout bounds the read of an HTTP request's body.
	bodyTimeout time.Duration
	// auth authenticates HTTP callers; nil in mode none.
	auth HTTPAuth
	// endpoints are the HTTP endpoints Handler built, where each call
	// finds the POST that carried it.
	endpoints httpserve.Endpoints
	// conns are the connections of the sessions on the server's own
	// transports (task_status.go).
	conns conns
	// headerTools are the tools whose input binds a header of its own
	// (x-mcp-header), filled as they register.
	headerTools map[string]bool
	// shared is what the server shares with its fleet (fleet.go).
	shared *shared
	// subscribers are the queues of the notifications each session is
	// to hear of a change (broadcast.go).
	subscribers *fanout.Queues[*mcp.ServerSession]

	// logLevels holds the sessions whose client set a log level (see
	// clientlog.go).
	logLevels sync.Map

	// The sessions being measured, whose durations shutdown waits for.
	sessionsWG     sync.WaitGroup
	sessionTimeout time.Duration

	// The server's life (see lifecycle.go): stopping is closed when
	// Shutdown begins, which wakes the transports served; stopped when it
	// has ended, with stopErr its result. background ends with Shutdown:
	// the work the server does on its own (the listener of the fleet's
	// bus) runs in it. transports counts the guarded sessions of
	// Serve still to drain, and posts the HTTP POSTs being
	// answered: Shutdown waits for their answers before it ends sessions.
	stopping      chan struct{}
	stopped       chan struct{}
	stopOnce      sync.Once
	stopErr       error
	background    context.Context
	endBackground context.CancelFunc
	transports    atomic.Int64
	posts         atomic.Int64

	tools, resources, prompts int
	names                     map[string]bool // "tool:echo": names taken
	scopes                    []string        // every scope the definitions declare
	// subscriptions match the URIs of the resources that accept
	// subscriptions; completions are the completers of prompts and
	// resource templates, by reference and argument.
	subscriptions []func(uri string) bool
	completions   map[string]map[string]CompleteFunc
	listed        []listing // what the landing page and the server card show (catalog.go)

	// taskStore holds the tasks, and taskRunner those running here; nil
	// unless a tool has a Task mode (see task_run.go).
	taskStore  fleet.TaskStore
	taskRunner *taskRunner

	// switches are the definitions as the fleet switched them on or off
	// (switches.go); visible decides what each caller sees
	// (visibility.go).
	switches switches
	visible  VisibleFunc
}

// A feature is what a definition may need of the server as a whole: the
// SDK advertises subscriptions and completions, and answers them, only when
// a handler for them is set.
type feature interface {
	subscribes() bool
	completes() bool
}

// NewServer builds a server for the given definitions. It checks every
// definition first and refuses to build a server with a broken one, such as
// an error contract with an unknown code or a duplicate reason; the error
// names each problem, its definition and its contract entry, and has code
// InitializationFailed. It also fails, with code ConfigurationError, on a
// bad setting of opts.Config. It reads no environment: package
// github.com/seed417024ea/mcpcore/app does.
func NewServer(info Info, opts *ServerOptions, defs ...Definition) (*Server, error) {
	if opts == nil {
		opts = &ServerOptions{}
	}
	if err := opts.Config.Check(); err != nil {
		return nil, badConfig(err)
	}
	cfg := opts.Config.withDefaults()
	// First, so that nothing the server writes from now on holds them.
	if err := keepSecrets(cfg, opts); err != nil {
		return nil, badConfig(err)
	}
	s := &Server{
		info:     info,
		cfg:      cfg,
		logger:   opts.Logger,
		shutdown: opts.ShutdownTimeout,
		inflight: newInflight(),
		stopping: make(chan struct{}),
		stopped:  make(chan struct{}),
		// A body of the largest size admitted arrives in well under this
		// on any working link.
		bodyTimeout: 30 * time.Second,
	}
	s.stateKeys = newStateKeys(cfg.StateKeys)
	if s.logger == nil {
		s.logger = slog.New(NewLogHandler(os.Stderr, &LogOptions{Level: cfg.LogLevel, JSON: cfg.LogJSON}))
	} else {
		// A logger of the user's is redacted too: every record of the
		// server, its handlers and the SDK goes through it.
		s.logger = slog.New(redact.Handler(s.logger.Handler()))
	}
	if s.shutdown == 0 {
		s.shutdown = 10 * time.Second
	}
	// Resolved, a negative bound means none, and a negative timeout never.
	s.maxResult = max(cfg.MaxResultBytes, 0)
	s.sessionTimeout = max(cfg.SessionIdleTimeout, 0) // 0 is the SDK's "never"
	window := opts.RepeatWindow
	if window == 0 {
		window = DefaultRepeatWindow
	}
	s.repeats = repeats.New(window, s.logger)
	s.transport = "stdio" // until Handler is called
	s.observer = opts.Observer
	sdkOpts := &mcp.ServerOptions{Instructions: info.Instructions, Logger: sdkLogger(s.logger, s.repeats), InitializedHandler: s.sessionStarted}
	if slices.ContainsFunc(defs, runsTasks) {
		s.taskStore, s.taskRunner = opts.Tasks, newTaskRunner(cfg.MaxTasks)
		if s.taskStore == nil {
			s.taskStore = fleet.NewLocalTasks(fleet.LocalTasksOptions{})
		}
		// Capabilities replaces the SDK's default, logging, which stays.
		//lint:ignore SA1019 log notifications stay in the protocol through its deprecation window, and clients use them.
		sdkOpts.Capabilities = &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{},
			Extensions: map[string]any{tasksExtension: map[string]any{}}}
	}
	if sdkOpts.Capabilities == nil {
		//lint:ignore SA1019 log notifications stay in the protocol through its deprecation window, and clients use them.
		sdkOpts.Capabilities = &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}}
	}
	for _, d := range defs {
		if f, ok := d.(feature); ok {
			// A stateless server takes subscriptions on the stream of a
			// subscriptions/listen (2026-07-28) only (see subscribe.go).
			if f.subscribes() {
				sdkOpts.SubscribeHandler, sdkOpts.UnsubscribeHandler = s.subscribe, s.unsubscribe
			}
			if f.completes() {
				sdkOpts.CompletionHandler = s.completion
			}
		}
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: info.Name, Version: info.Version, Title: info.Title}, sdkOpts)
	s.mcp.AddReceivingMiddleware(s.receive)
	if s.taskStore != nil {
		s.addTaskMethods()
	}
	if cfg.Stateless {
		s.mcp.AddReceivingMiddleware(refuseSessionSubscriptions)
	}
	s.subscribers = s.newSubscribers()
	s.mcp.AddSendingMiddleware(s.queueBroadcasts, checkAnswers)
	var errs []error
	if info.Name == "" {
		errs = append(errs, errors.New("Info.Name is empty"))
	}
	if slices.ContainsFunc(opts.Interceptors, func(i Interceptor) bool { return i == nil }) {
		errs = append(errs, errNilInterceptor)
	} else {
		s.interceptors = slices.Clone(opts.Interceptors)
	}
	for _, d := range defs {
		if d == nil {
			errs = append(errs, errors.New("nil definition"))
			continue
		}
		if err := d.register(s); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, mcperr.New(mcperr.CodeInitializationFailed, "mcpcore: invalid server definition: "+err.Error(), mcperr.WithCause(err))
	}
	// The SDK advertises a kind of definition only while its set holds
	// one; the capabilities stay those of the definitions, whichever the
	// fleet switched off (see SetEnabled). The SDK reads them through
	// this pointer, and no session exists yet.
	caps := s.capabilities()
	sdkOpts.Capabilities.Tools, sdkOpts.Capabilities.Prompts, sdkOpts.Capabilities.Resources = caps.Tools, caps.Prompts, caps.Resources
	s.background, s.endBackground = context.WithCancel(context.Background())
	s.switches.store, s.visible = opts.Catalog, opts.Visible
	if s.switches.store == nil {
		s.switches.store = &fleet.LocalCatalog{}
	}
	s.watchCatalog()
	if s.taskStore != nil {
		stop := s.taskStore.Watch(s.taskSignal)
		context.AfterFunc(s.background, func() { stop() })
	}
	s.auth = opts.HTTPAuth
	s.openShared(opts)
	return s, nil
}

// checkDefinition checks what every definition needs before it is registered: a name,
// a handler, scopes a token can carry and a structurally sound error contract.
func checkDefinition(kind, name string, hasHandler bool, scopes []string, contract []Failure) error {
	if name == "" {
		return fmt.Errorf("%s with an empty Name", kind)
	}
	if !hasHandler {
		return fmt.Errorf("%s %q: nil Handler", kind, name)
	}
	for _, sc := range scopes {
		// RFC 6749's scope-token: printable ASCII but space, " and \.
		if sc == "" || strings.ContainsFunc(sc, func(r rune) bool { return r <= ' ' || r > '~' || r == '"' || r == '\\' }) {
			return fmt.Errorf("%s %q: scope %q is not an OAuth scope token (printable ASCII without spaces, quotes or backslashes)", kind, name, sc)
		}
	}
	return checkContract(kind, name, contract)
}

// claim reserves a definition's name (the SDK would silently replace an
// earlier definition of the same name, contract and all) and records its
// scopes, which the protected-resource metadata publishes.
func (s *Server) claim(kind, name string, scopes []string) error {
	key := kind + ":" + name
	if s.names[key] {
		return fmt.Errorf("%s %q is defined twice", kind, name)
	}
	if s.names == nil {
		s.names = make(map[string]bool)
	}
	s.names[key] = true
	s.scopes = append(s.scopes, scopes...)
	return nil
}

// MCPServer returns the SDK server underneath, to connect it to a transport
// of your own (an in-memory one in tests, say) or to add what mcpcore does
// not wrap. Tools added to it directly bypass mcpcore's dispatch.
func (s *Server) MCPServer() *mcp.Server { return s.mcp }

// Logger returns the server's logger.
func (s *Server) Logger() *slog.Logger { return s.logger }

// LogOptions are the options of [NewLogHandler]. The zero value writes text
// records at info and above.
type LogOptions struct {
	// Level is the lowest level written; nil means info.
	Level slog.Leveler
	// JSON writes one JSON object a record instead of text.
	JSON bool
}

// NewLogHandler returns the handler of the server's default logger: text (or
// JSON) records at or above the level of opts (nil opts: text at info),
// written to w, with [LevelNotice] printed as NOTICE, and redacted as
// [ServerOptions.Logger] describes.
func NewLogHandler(w io.Writer, opts *LogOptions) slog.Handler {
	if opts == nil {
		opts = &LogOptions{}
	}
	ho := &slog.HandlerOptions{Level: opts.Level, ReplaceAttr: levelNames}
	if opts.JSON {
		return redact.Handler(slog.NewJSONHandler(w, ho))
	}
	return redact.Handler(slog.NewTextHandler(w, ho))
}

func levelNames(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.LevelKey {
		if l, ok := a.Value.Any().(slog.Level); ok && l == LevelNotice {
			a.Value = slog.StringValue("NOTICE")
		}
	}
	return a
}
