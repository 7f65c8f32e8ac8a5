package mcpcore_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/fleet"
	"github.com/seed417024ea/mcpcore/internal/wiretest"
	"github.com/seed417024ea/mcpcore/mcptest"
)

// silentSubscriber connects a client to srv over a pipe that subscribes
// to uris and then never reads again, as a client whose buffers are full;
// closing the returned conn is its hanging up.
func silentSubscriber(t *testing.T, srv *mcpcore.Server, uris []string) (net.Conn, *mcp.ServerSession) {
	t.Helper()
	client, server := net.Pipe()
	ss, err := srv.MCPServer().Connect(context.Background(), &mcp.IOTransport{Reader: server, Writer: server}, nil)
	if err != nil {
		t.Fatal(err)
	}
	answers := bufio.NewReader(client)
	send := func(line string, answered bool) {
		if _, err := client.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
		if answered {
			if _, err := answers.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"silent","version":"1"}}}`, true)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, false)
	for i, uri := range uris {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/subscribe","params":{"uri":%q}}`, i+2, uri), true)
	}
	return client, ss
}

// heldBus is a fleet.Bus whose events the test hands to the server, from
// one goroutine, as a bus's listener does.
type heldBus struct{ deliver func(fleet.Event) }

func (b *heldBus) Publish(fleet.Event) {}
func (b *heldBus) Listen(deliver func(fleet.Event)) func() {
	b.deliver = deliver
	return func() {}
}

// TestASilentSubscriberStallsNoCall: beside a subscriber that never reads,
// every call that raises a change returns, as does the delivery of
// another replica's change from the bus; another subscriber hears every
// change, and the notifications the silent one could not take are dropped
// and logged once, when it hangs up, with their count. No goroutine
// outlives the sessions. Not parallel: goroutines are compared with the
// process's own.
func TestASilentSubscriberStallsNoCall(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	const changes = mcpcore.MaxQueuedNotifications + 150
	var uris []string
	for i := range changes {
		uris = append(uris, fmt.Sprintf("test://items/%d", i))
	}
	item := mcpcore.Resource[itemParams, string]{
		Name: "item", URITemplate: "test://items/{id}", MIMEType: "text/plain", Subscribe: true,
		Handler: func(_ *mcpcore.Context, p itemParams) (string, error) { return p.ID, nil },
	}
	change := mcpcore.Tool[itemParams, said]{Name: "change", Description: "changes an item",
		Handler: func(ctx *mcpcore.Context, in itemParams) (said, error) {
			return said{"ok"}, ctx.NotifyResourceUpdated("test://items/" + in.ID)
		}}
	bus := &heldBus{}
	srv, logs := newServer(t, &mcpcore.ServerOptions{Bus: bus}, item, change)

	var heard atomic.Int64
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.MCPServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "reader", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(context.Context, *mcp.ResourceUpdatedNotificationRequest) { heard.Add(1) },
	}).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, uri := range uris {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			t.Fatal(err)
		}
	}
	silent, silentSession := silentSubscriber(t, srv, uris)
	defer silentSession.Wait()
	defer silent.Close()
	defer ss.Wait()
	defer cs.Close()

	done := make(chan error, 1)
	go func() {
		for i := range changes {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "change", Arguments: map[string]any{"id": fmt.Sprint(i)}})
			if err == nil && res.IsError {
				err = fmt.Errorf("change %d: %s", i, wiretest.Text(t, res))
			}
			if err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second): // generous: the calls take milliseconds
		t.Fatal("the calls that raise changes are stalled by a subscriber that does not read")
	}
	go func() {
		bus.deliver(fleet.Event{Method: fleet.ResourceUpdated, URI: uris[0]})
		done <- nil
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the bus's delivery of another replica's change is stalled by a subscriber that does not read")
	}
	mcptest.WaitFor(t, "the reader to hear every change", func() bool { return heard.Load() == changes+1 })

	silent.Close() // the silent client hangs up: its queue drains
	mcptest.WaitFor(t, "the drops to be logged", func() bool { return logs.Has(t, "notifications to a session were dropped") })
	var records []map[string]any
	for _, r := range logs.Records(t) {
		if strings.Contains(fmt.Sprint(r["msg"]), "notifications to a session were dropped") {
			records = append(records, r)
		}
	}
	// The silent session was sent every change and the bus's: one was
	// being written when its queue filled, the queue held its size, and
	// the rest were dropped (one more if the first waited in the queue).
	const dropped = changes + 1 - 1 - mcpcore.MaxQueuedNotifications
	if len(records) != 1 || (records[0]["dropped"] != float64(dropped) && records[0]["dropped"] != float64(dropped+1)) ||
		records[0]["sessionId"] != silentSession.ID() {
		t.Errorf("drop records: %v; want one for the silent session, of %d or %d notifications", records, dropped, dropped+1)
	}
}
