package manifest

import (
	"strconv"
	"strings"
)

// CompareVersions orders versions component by component (split on '.', '-' and '_'): numeric
// components compare as numbers, others as strings, numbers sort before strings, and a version that
// is a prefix of another is older. It returns -1, 0 or +1. It is total and deterministic so that
// every edge and the controller agree on "older".
func CompareVersions(a, b string) int {
	split := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '-' || r == '_' })
	}
	pa, pb := split(a), split(b)
	for i := 0; i < len(pa) && i < len(pb); i++ {
		if c := compareComponent(pa[i], pb[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(pa) < len(pb):
		return -1
	case len(pa) > len(pb):
		return 1
	}
	return strings.Compare(a, b)
}

func compareComponent(a, b string) int {
	na, errA := strconv.ParseUint(a, 10, 64)
	nb, errB := strconv.ParseUint(b, 10, 64)
	switch {
	case errA == nil && errB == nil:
		switch {
		case na < nb:
			return -1
		case na > nb:
			return 1
		}
		return strings.Compare(a, b) // "01" vs "1": still total
	case errA == nil:
		return -1
	case errB == nil:
		return 1
	}
	return strings.Compare(a, b)
}
