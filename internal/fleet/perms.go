package fleet

import (
	"fmt"

	"github.com/sucursal/sucursal/internal/fleetapi"
)

// SubjectPermission is an allow list of NATS subjects (anything not listed is denied).
type SubjectPermission struct {
	Allow []string `json:"allow"`
}

// Permissions is one NATS user's publish and subscribe permissions, in the JSON shape a
// nats-server configuration accepts for a user's `permissions` block.
type Permissions struct {
	Publish   SubjectPermission `json:"publish"`
	Subscribe SubjectPermission `json:"subscribe"`
}

// EdgePermissions is the least an edge needs for model sync: read the desired-state KV and the
// artifact Object Store through JetStream consumers, and write its own status key. It grants no
// access to the control bucket (catalog, rollouts, controller lease) or the edges bucket (the
// last-known state the controller keeps of every edge), no JetStream publish to
// any bucket but its own status key, and no stream or consumer management beyond creating,
// reading and deleting consumers on the two streams it reads. Replies come to the edge's own
// inbox prefix (fleetapi.InboxPrefix), so it cannot read other clients' replies.
//
// What it does not isolate, by design: any edge can read every desired-state key (signed
// manifests, public to the fleet: the consumer API cannot be limited per key), every artifact,
// and could delete another edge's read consumer (which that edge recreates).
func EdgePermissions(edgeID string, b fleetapi.Buckets) (Permissions, error) {
	if !fleetapi.ValidToken(edgeID) {
		return Permissions{}, fmt.Errorf("fleet: edge id %q is not a valid token", edgeID)
	}
	b = b.WithDefaults()
	desired, artifacts, status := "KV_"+b.Desired, "OBJ_"+b.Artifacts, "KV_"+b.Status
	api := "$JS.API."
	pub := []string{
		// Open the buckets (stream info of exactly these three streams).
		api + "STREAM.INFO." + desired, api + "STREAM.INFO." + status, api + "STREAM.INFO." + artifacts,
		// The desired-state watch (push) and the artifact reader (pull) are ordered consumers; a
		// stopped watch deletes its consumer rather than leave it to expire.
		api + "CONSUMER.CREATE." + desired + ".>", api + "CONSUMER.DELETE." + desired + ".>",
		api + "CONSUMER.CREATE." + artifacts + ".>", api + "CONSUMER.DELETE." + artifacts + ".>",
		api + "CONSUMER.MSG.NEXT." + artifacts + ".>",
		// Object metadata (GetInfo) is a direct get (fleet.Init creates the store with direct gets).
		api + "DIRECT.GET." + artifacts + ".>",
		// Flow-control replies of the push consumer, when the watch falls behind.
		"$JS.FC." + desired + ".>",
		// Its own status, and nothing else, is the one thing an edge writes.
		"$KV." + b.Status + "." + fleetapi.StatusKey(edgeID),
		// Its usage summaries, appended to the usage history (the stream's ack comes to its inbox).
		fleetapi.UsageSubject(edgeID),
	}
	sub := []string{fleetapi.InboxPrefix(edgeID) + ".>"}
	return Permissions{Publish: SubjectPermission{Allow: pub}, Subscribe: SubjectPermission{Allow: sub}}, nil
}
