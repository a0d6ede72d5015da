package manifest

import "testing"

func TestCompareVersions(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"1.2.0", "1.2.0", 0},
		{"1.2.0", "1.10.0", -1},
		{"2", "1.9.9", 1},
		{"1.2", "1.2.1", -1},
		{"1.2.0-rc1", "1.2.0", 1}, // longer wins: no pre-release semantics, documented
		{"2026-11-29.2", "2026-11-29.10", -1},
		{"a", "1", 1},
		{"01", "1", -1},
	}
	for _, tt := range tests {
		if got := CompareVersions(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func FuzzCompareVersions(f *testing.F) {
	f.Add("1.2.0", "1.10.0", "1.3")
	f.Add("a-1", "a_2", "b")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		ab, ba := CompareVersions(a, b), CompareVersions(b, a)
		if ab != -ba {
			t.Fatalf("not antisymmetric: %q %q: %d %d", a, b, ab, ba)
		}
		if (ab == 0) != (a == b) {
			t.Fatalf("equal only for identical strings: %q %q -> %d", a, b, ab)
		}
		if ab < 0 && CompareVersions(b, c) < 0 && CompareVersions(a, c) >= 0 {
			t.Fatalf("not transitive: %q < %q < %q", a, b, c)
		}
	})
}
