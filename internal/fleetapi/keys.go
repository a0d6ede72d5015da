package fleetapi

import (
	"maps"
	"regexp"
	"slices"
	"strings"
)

// TokenPattern is what one token of a key may be: edge ids, label names and values. Such a token
// is also one NATS subject token, so keys and permission subjects built from it stay unambiguous.
const TokenPattern = `^[A-Za-z0-9_-]{1,64}$`

var tokenRE = regexp.MustCompile(TokenPattern)

// ValidToken reports whether s can be one token of a KV key (edge ids, label names and values).
func ValidToken(s string) bool { return tokenRE.MatchString(s) }

// Desired-state keys. The most specific entry wins: edge, then label selector (more labels
// first), then role default.
func RoleKey(role string) string         { return "role." + role }
func EdgeKey(edgeID, role string) string { return "edge." + edgeID + "." + role }
func LabelKey(k, v, role string) string  { return "sel." + k + "=" + v + "." + role }

// StatusKey is an edge's key in the status bucket; the edge writes it and nothing else.
func StatusKey(edgeID string) string { return "edge." + edgeID }

// SelectorKey is the desired-state key for every edge that has all the labels of sel:
// "sel.<k1>=<v1>/<k2>=<v2>.<role>", labels sorted by name, so one selector has one key. With one
// label it is LabelKey. Labels are tokens (no "=", "/" or "."), so the key parses back unambiguously
// and stays one subject token: the edges' "sel.*.*" watch sees it.
func SelectorKey(sel map[string]string, role string) string {
	pairs := make([]string, 0, len(sel))
	for _, k := range slices.Sorted(maps.Keys(sel)) {
		pairs = append(pairs, k+"="+sel[k])
	}
	return "sel." + strings.Join(pairs, "/") + "." + role
}

// ParseSelector reads the selector token of a "sel.<token>.<role>" key: "k=v" pairs joined by "/".
// It refuses anything SelectorKey would not write (empty, malformed or repeated labels).
func ParseSelector(token string) (map[string]string, bool) {
	out := map[string]string{}
	for _, pair := range strings.Split(token, "/") {
		k, v, ok := strings.Cut(pair, "=")
		if !ok || !ValidToken(k) || !ValidToken(v) {
			return nil, false
		}
		if _, dup := out[k]; dup {
			return nil, false
		}
		out[k] = v
	}
	return out, true
}

// Scope says which edges a desired-state key is for.
type Scope int

const (
	ScopeRole     Scope = iota + 1 // every edge: "role.<role>"
	ScopeSelector                  // edges with all the labels: "sel.<k1>=<v1>[/…].<role>"
	ScopeEdge                      // one edge: "edge.<id>.<role>"
)

// DesiredKey is a desired-state key read back.
type DesiredKey struct {
	Scope    Scope
	Role     string
	EdgeID   string            // ScopeEdge only
	Selector map[string]string // ScopeSelector only
}

// ParseDesiredKey reads a key written by RoleKey, EdgeKey or SelectorKey. It refuses any other
// shape and any selector ParseSelector refuses.
func ParseDesiredKey(key string) (DesiredKey, bool) {
	parts := strings.Split(key, ".")
	switch {
	case len(parts) == 2 && parts[0] == "role":
		return DesiredKey{Scope: ScopeRole, Role: parts[1]}, true
	case len(parts) == 3 && parts[0] == "sel":
		sel, ok := ParseSelector(parts[1])
		if !ok {
			return DesiredKey{}, false
		}
		return DesiredKey{Scope: ScopeSelector, Role: parts[2], Selector: sel}, true
	case len(parts) == 3 && parts[0] == "edge":
		return DesiredKey{Scope: ScopeEdge, Role: parts[2], EdgeID: parts[1]}, true
	}
	return DesiredKey{}, false
}

// DesiredFilters are the desired-state keys an edge watches: role defaults, every selector (the
// edge matches labels itself) and its own edge keys.
func DesiredFilters(edgeID string) []string {
	return []string{"role.*", "edge." + edgeID + ".*", "sel.*.*"}
}

// ObjectName is where a role/version's artifact lives in the artifacts Object Store; a manifest
// names it in its Object field, which is all an edge reads.
func ObjectName(role, version string) string { return role + "/" + version }

// InboxPrefix is where an edge's NATS replies and consumer deliveries go. It is per edge so that
// the fleet's NATS permissions can let an edge subscribe to its own replies only (see
// fleet.EdgePermissions).
func InboxPrefix(edgeID string) string { return "_INBOX.edge." + edgeID }
