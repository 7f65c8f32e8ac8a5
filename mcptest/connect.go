package mcptest

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcpclient"
)

// connect connects a client named name, with opts, asking for protocol
// version ("" for the latest), to srv over in-memory transports; record
// says whether its tools/call results count for contract coverage, tasks
// whether it declares the tasks extension (mcpclient.NewClient) and keeps
// the tasks the server answers with (mcpclient.Transport). close ends the
// session and waits for the server's side.
func connect(srv *mcpcore.Server, name string, opts *mcp.ClientOptions, version string, record, tasks bool, mw ...mcp.Middleware) (cs *mcp.ClientSession, close func(), err error) {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCPServer().Connect(ctx, st, nil)
	if err != nil {
		return nil, nil, err
	}
	var t mcp.Transport = ct
	if record {
		// The recorder sees the wire as the server sent it: inside the
		// task wrapping, which rewrites a CreateTaskResult.
		t = recorder{t}
	}
	impl := &mcp.Implementation{Name: name, Version: "1"}
	var client *mcp.Client
	if tasks {
		client = mcpclient.NewClient(impl, opts)
		t = mcpclient.Transport(t)
	} else {
		client = mcp.NewClient(impl, opts)
	}
	client.AddReceivingMiddleware(mw...)
	cs, err = client.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		ss.Close()
		return nil, nil, err
	}
	return cs, func() {
		cs.Close()
		ss.Wait()
	}, nil
}
