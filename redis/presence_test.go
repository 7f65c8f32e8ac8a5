package redis

import (
	"testing"
)

// Each replica counts the others alive, reports the count as a metric, and
// leaves the count as it closes.
func TestPresenceCountsReplicas(t *testing.T) {
	m := startRedis(t)
	a, b, c := newReplica(t, m.Addr()), newReplica(t, m.Addr()), newReplica(t, m.Addr())
	eventually(t, "see three replicas", func() bool { return a.replicaCount() == 3 })
	if n := a.sum(t, "mcp.fleet.replicas", "", ""); n != 3 {
		t.Errorf("mcp.fleet.replicas = %d, want 3", n)
	}
	members, err := m.ZMembers("mcpcore:weather:replicas")
	if err != nil || len(members) != 3 {
		t.Fatalf("replicas set holds %q (%v), want three ids", members, err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	eventually(t, "see two replicas", func() bool { return a.replicaCount() == 2 && b.replicaCount() == 2 })

	// A replica that vanished without Close drops out when its presence
	// passes: here, one whose score is long past.
	if _, err := m.ZAdd("mcpcore:weather:replicas", 1, "gone"); err != nil {
		t.Fatal(err)
	}
	eventually(t, "forget a replica long gone", func() bool {
		ok, _ := m.ZScore("mcpcore:weather:replicas", "gone")
		return ok == 0 && a.replicaCount() == 2
	})
}
