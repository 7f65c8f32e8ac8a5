package mcptest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/seed417024ea/mcpcore"
	"github.com/seed417024ea/mcpcore/mcperr"
	"github.com/seed417024ea/mcpcore/mcptest"
)

var outOfStock = mcpcore.Failure{
	Reason:    "out_of_stock",
	Code:      mcperr.CodeNotFound,
	When:      "The item is out of stock.",
	Recovery:  "Call list_items to find an item that is in stock.",
	Retryable: mcpcore.NotRetryable,
}

type orderIn struct {
	Item string `json:"item"`
}

type orderOut struct {
	OrderID string `json:"orderId"`
}

var orderItem = mcpcore.Tool[orderIn, orderOut]{
	Name:        "order_item",
	Description: "Order one item.",
	Errors:      []mcpcore.Failure{outOfStock},
	Handler: func(ctx *mcpcore.Context, in orderIn) (orderOut, error) {
		switch in.Item {
		case "teapot":
			return orderOut{}, ctx.Fail(outOfStock, in.Item+" is out of stock", ctx.RecoveryFor(outOfStock))
		case "kettle":
			ctx.Logger().Info("no kettles", "password", "hunter2")
			return orderOut{}, errors.New("warehouse offline")
		case "slow":
			<-ctx.Done()
			return orderOut{}, ctx.Err()
		}
		return orderOut{OrderID: "o-1"}, nil
	},
}

func TestAssertFailurePasses(t *testing.T) {
	c := mcptest.Start(t, mcpcore.Info{Name: "shop"}, orderItem)
	res := c.CallTool("order_item", map[string]any{"item": "teapot"})
	mcptest.AssertFailure(t, res, outOfStock, mcptest.DeclaredRecovery(), mcptest.Message("teapot is out of stock"))
	if got := mcptest.Observed("order_item")["out_of_stock"]; got < 1 {
		t.Errorf("Observed = %d, want the failure counted", got)
	}
	if recs := c.Logs().Find("Error in tool:order_item"); len(recs) != 1 {
		t.Errorf("server records = %v", recs)
	}
}

// fakeT records what AssertFailure reports, to test its failures.
type fakeT struct {
	testing.TB
	errors []string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, strings.TrimSpace(fmt.Sprintf(format, args...)))
}

func TestAssertFailureReportsADiff(t *testing.T) {
	c := mcptest.Start(t, mcpcore.Info{Name: "shop"}, orderItem)
	res := c.CallTool("order_item", map[string]any{"item": "kettle"}) // a classified failure: InternalError, no reason
	ft := &fakeT{TB: t}
	mcptest.AssertFailure(ft, res, outOfStock)
	if len(ft.errors) != 1 {
		t.Fatalf("AssertFailure reported %d errors, want 1", len(ft.errors))
	}
	for _, want := range []string{`the result is not failure "out_of_stock"`, `"isError": true`, "-32001", "-32603", `"out_of_stock"`, "- expected, + actual"} {
		if !strings.Contains(ft.errors[0], want) {
			t.Errorf("report lacks %q:\n%s", want, ft.errors[0])
		}
	}
	ft = &fakeT{TB: t}
	good := c.CallTool("order_item", map[string]any{"item": "teapot"})
	mcptest.AssertFailure(ft, good, outOfStock, mcptest.Recovery("another hint"))
	if len(ft.errors) != 1 || !strings.Contains(ft.errors[0], "another hint") {
		t.Errorf("a wrong recovery hint was not reported: %v", ft.errors)
	}
}

func TestHarnessRunsAHandlerWithItsContract(t *testing.T) {
	h := mcptest.NewHarness(t)
	_, err := mcptest.RunTool(h, orderItem, orderIn{Item: "teapot"})
	var e *mcperr.Error
	if !errors.As(err, &e) || e.Code() != mcperr.CodeNotFound || e.Data()["reason"] != "out_of_stock" || e.RecoveryHint() != outOfStock.Recovery {
		t.Errorf("err = %v, want the declared failure with its recovery", err)
	}
	if _, err := mcptest.RunTool(h, orderItem, orderIn{Item: "kettle"}); err == nil {
		t.Error("kettle did not fail")
	}
	recs := h.Logs().Find("no kettles")
	if len(recs) != 1 || recs[0]["password"] != "[REDACTED]" || recs[0]["operation"] != "tool:order_item" {
		t.Errorf("records = %v, want the handler's record, redacted, with its operation", recs)
	}
	h.Cancel()
	if _, err := mcptest.RunTool(h, orderItem, orderIn{Item: "slow"}); !errors.Is(err, context.Canceled) {
		t.Errorf("after Cancel: err = %v, want context.Canceled", err)
	}
}

type harnessKey struct{}

// TestHarnessContextReachesTheHandler: a harness made WithContext runs its
// handlers with that context's deadline and values, as the service a
// handler calls would see them.
func TestHarnessContextReachesTheHandler(t *testing.T) {
	deadline := time.Now().Add(time.Hour)
	ctx, cancel := context.WithDeadline(context.WithValue(context.Background(), harnessKey{}, "fake store"), deadline)
	defer cancel()
	h := mcptest.NewHarness(t).WithContext(ctx)
	var gotDeadline time.Time
	var gotValue any
	tool := orderItem
	tool.Handler = func(ctx *mcpcore.Context, in orderIn) (orderOut, error) {
		gotDeadline, _ = ctx.Deadline()
		gotValue = ctx.Value(harnessKey{})
		return orderOut{OrderID: in.Item}, nil
	}
	if out, err := mcptest.RunTool(h, tool, orderIn{Item: "cup"}); err != nil || out.OrderID != "cup" {
		t.Fatalf("RunTool: %v %v", out, err)
	}
	if !gotDeadline.Equal(deadline) || gotValue != "fake store" {
		t.Errorf("the handler saw deadline %v and value %v; want the harness's", gotDeadline, gotValue)
	}
}

func TestCoverageReport(t *testing.T) {
	c := mcptest.Start(t, mcpcore.Info{Name: "shop"}, orderItem)
	mcptest.AssertFailure(t, c.CallTool("order_item", map[string]any{"item": "teapot"}), outOfStock, mcptest.DeclaredRecovery())
	cov, err := mcptest.CoverageOf(orderItem)
	if err != nil {
		t.Fatal(err)
	}
	if u := cov.Uncovered(); len(u) != 0 {
		t.Errorf("uncovered = %v", u)
	}
	var b strings.Builder
	cov.WriteTo(&b)
	if !strings.Contains(b.String(), "order_item") || !strings.Contains(b.String(), "1 of 1 declared reasons covered") {
		t.Errorf("report:\n%s", b.String())
	}
}

// FuzzOrderItem runs its seeds (made from order_item's input schema) as a
// unit test, and fuzzes with -fuzz.
func FuzzOrderItem(f *testing.F) {
	tool := orderItem
	tool.Handler = func(ctx *mcpcore.Context, in orderIn) (orderOut, error) {
		switch {
		case in.Item == "teapot":
			return orderOut{}, ctx.Fail(outOfStock, "out of stock", ctx.RecoveryFor(outOfStock))
		case strings.HasPrefix(in.Item, "x"):
			return orderOut{}, errors.New("plain failure with password=hunter2")
		case strings.HasPrefix(in.Item, "p"):
			panic("handler bug")
		}
		return orderOut{OrderID: in.Item}, nil
	}
	mcptest.FuzzTool(f, mcptest.NewServer(f, mcpcore.Info{Name: "shop"}, tool), "order_item")
}

func TestAssertFailureAbsences(t *testing.T) {
	c := mcptest.Start(t, mcpcore.Info{Name: "shop"}, orderItem)
	res := c.CallTool("order_item", map[string]any{"item": "teapot"})
	ft := &fakeT{TB: t}
	mcptest.AssertFailure(ft, res, outOfStock, mcptest.NoRecovery())
	if len(ft.errors) != 1 || !strings.Contains(ft.errors[0], "recovery") {
		t.Errorf("a hint sent where none was expected was not reported: %v", ft.errors)
	}
	ft = &fakeT{TB: t}
	mcptest.AssertFailure(ft, res, outOfStock, mcptest.NoData("reason"))
	if len(ft.errors) != 1 {
		t.Errorf("a data key expected absent was not reported: %v", ft.errors)
	}
	t.Run("subtest", func(t *testing.T) {
		sub := c.For(t)
		mcptest.AssertFailure(t, sub.CallTool("order_item", map[string]any{"item": "teapot"}), outOfStock, mcptest.DeclaredRecovery(), mcptest.NoData("action"))
	})
}
