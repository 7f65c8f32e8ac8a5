package rpcguard

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// decodedPipe connects a guard's Transport to pipes: the test writes the
// client's lines to in and reads the server's from out.
func decodedPipe(t *testing.T) (in io.Writer, out *bufio.Reader, c *conn) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	g := New(inR, outW, 0)
	mc, err := g.Transport().Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mc.Close(); inW.Close(); outR.Close() })
	return inW, bufio.NewReader(outR), mc.(*conn)
}

func readMsg(t *testing.T, c *conn) jsonrpc.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	m, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return m
}

// TestConnDecodesAsTheSDK: each message the connection hands over is the
// one the SDK's own decoder makes of the same line.
func TestConnDecodesAsTheSDK(t *testing.T) {
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}`,
		`{"jsonrpc":"2.0","id":"s\u00e9\n","method":"ping"}`,
		`{"jsonrpc":"2.0","id":9007199254740992,"method":"tools/call","params":{"name":"x","arguments":{"a":[1,{"b":null}]}}}`,
		`{"jsonrpc":"2.0","id":-3,"method":"m","params":null}`,
		`{"method":"notifications/initialized","jsonrpc":"2.0"}`,
		`{"jsonrpc":"2.0","id":"r1","result":{"content":[]}}`,
		`{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"no","data":{"k":1}}}`,
	}
	in, _, c := decodedPipe(t)
	go io.WriteString(in, strings.Join(lines, "\n")+"\n")
	for _, line := range lines {
		got := readMsg(t, c)
		want, err := jsonrpc.DecodeMessage([]byte(line))
		if err != nil {
			t.Fatalf("the SDK cannot decode %s: %v", line, err)
		}
		g, _ := jsonrpc.EncodeMessage(got)
		w, _ := jsonrpc.EncodeMessage(want)
		if string(g) != string(w) {
			t.Errorf("%s\ndecoded as %s\nthe SDK's: %s", line, g, w)
		}
		if r, ok := got.(*jsonrpc.Request); ok && r.ID != want.(*jsonrpc.Request).ID {
			t.Errorf("%s: id %#v, the SDK's %#v", line, r.ID.Raw(), want.(*jsonrpc.Request).ID.Raw())
		}
	}
}

// TestConnAnswersABatchInOneArray: the answers to a batch's requests,
// written in any order, go out as one array in the batch's order, once the
// last is written; an answer outside the batch goes out at once.
func TestConnAnswersABatchInOneArray(t *testing.T) {
	in, out, c := decodedPipe(t)
	go io.WriteString(in, `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":"b","method":"ping"}]`+"\n"+
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`+"\n")
	var reqs []*jsonrpc.Request
	for range 4 {
		reqs = append(reqs, readMsg(t, c).(*jsonrpc.Request))
	}
	if reqs[1].ID.IsValid() || reqs[1].Method != "n" { // pings need no session
		t.Fatalf("the batch's notification came as %+v", reqs[1])
	}
	lines := make(chan string, 4)
	go func() {
		for {
			l, err := out.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- strings.TrimSuffix(l, "\n")
		}
	}()
	answer := func(r *jsonrpc.Request) {
		t.Helper()
		res, _ := json.Marshal(map[string]any{"id": r.ID.Raw()})
		if err := c.Write(context.Background(), &jsonrpc.Response{ID: r.ID, Result: res}); err != nil {
			t.Fatal(err)
		}
	}
	answer(reqs[2]) // the batch's second request first
	answer(reqs[3]) // outside the batch: at once
	if got, want := <-lines, `{"jsonrpc":"2.0","id":3,"result":{"id":3}}`; got != want {
		t.Fatalf("first line %s, want %s (the batch must wait for its last answer)", got, want)
	}
	answer(reqs[0])
	if got, want := <-lines, `[{"jsonrpc":"2.0","id":1,"result":{"id":1}},{"jsonrpc":"2.0","id":"b","result":{"id":"b"}}]`; got != want {
		t.Errorf("batch answer %s, want %s", got, want)
	}
}

// TestConnCloseUnblocksRead: Close ends a Read that waits for input that
// never comes, as the SDK requires of a connection.
func TestConnCloseUnblocksRead(t *testing.T) {
	_, _, c := decodedPipe(t)
	done := make(chan error, 1)
	go func() {
		_, err := c.Read(context.Background())
		done <- err
	}()
	time.Sleep(10 * time.Millisecond)
	c.Close()
	select {
	case err := <-done:
		if err != io.EOF {
			t.Errorf("Read after Close: %v, want io.EOF", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read still blocked after Close")
	}
}

// TestConnGivesCodeZeroACode: an error the SDK answers with by itself,
// with no JSON-RPC code (a request cancelled before its handler started:
// context.Canceled), goes out with a code, alone or in a batch's array;
// any other error goes out as it is.
func TestConnGivesCodeZeroACode(t *testing.T) {
	in, out, c := decodedPipe(t)
	go io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"+
		`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]`+"\n"+
		`{"jsonrpc":"2.0","id":4,"method":"ping"}`+"\n")
	var ids []jsonrpc.ID
	for range 4 {
		ids = append(ids, readMsg(t, c).(*jsonrpc.Request).ID)
	}
	go func() {
		for n, err := range []error{context.Canceled, context.Canceled, &jsonrpc.Error{Code: -32601, Message: "no"}, errors.New("something else")} {
			c.Write(context.Background(), &jsonrpc.Response{ID: ids[n], Error: err})
		}
	}()
	for _, want := range []string{
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32011,"message":"The request was cancelled."}}`,
		`[{"jsonrpc":"2.0","id":2,"error":{"code":-32011,"message":"The request was cancelled."}},{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}]`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"Internal error: the server could not answer this request."}}`,
	} {
		l, err := out.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(l, "\n"); got != want {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
}
