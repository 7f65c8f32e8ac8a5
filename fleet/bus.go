package fleet

// The methods of the notifications an [Event] carries.
const (
	ResourceUpdated     = "notifications/resources/updated"
	ResourceListChanged = "notifications/resources/list_changed"
	ToolListChanged     = "notifications/tools/list_changed"
	PromptListChanged   = "notifications/prompts/list_changed"
)

// An Event is a notification one replica raised, for the subscribers of
// every replica: its method, and for [ResourceUpdated] the resource's URI.
type Event struct {
	Method string `json:"method"`
	URI    string `json:"uri,omitempty"`
}

// A Bus carries [Event]s between the replicas of one server.
//
// The server delivers each event it raises to its own subscribers first,
// then hands it to Publish; it delivers each event Listen hands it to its own
// subscribers and never publishes it again. So that every subscriber hears of
// an event exactly once, a Bus must not hand a replica its own events back
// (echoes are dropped), and must hand it each event of the others at most
// once.
type Bus interface {
	// Publish sends e to the other replicas. It is called on the path of
	// the call that raised the event, so it must not wait on the network:
	// a Bus queues the event and sends it in the background, dropping
	// (and counting) what it cannot send.
	Publish(e Event)
	// Listen calls deliver, from one goroutine, with every event another
	// replica publishes, until stop is called. A Bus that loses its
	// connection listens again by itself when it can; events published
	// in between are lost, as notifications are when a client is away.
	Listen(deliver func(Event)) (stop func())
}
