package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	vcs := &debug.BuildInfo{
		Main: debug.Module{Path: "github.com/sucursal/sucursal", Version: "(devel)"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123abcd"},
			{Key: "vcs.time", Value: "2026-11-29T10:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	installed := &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}
	for _, tc := range []struct {
		name                  string
		version, commit, date string
		bi                    *debug.BuildInfo
		want                  Info
	}{
		{"ldflags win over the toolchain", "v1.0.0-3-gfeed", "feedface", "2026-11-30T00:00:00Z", vcs,
			Info{Version: "v1.0.0-3-gfeed", Commit: "feedface", Date: "2026-11-30T00:00:00Z"}},
		{"go build in a work tree", "", "", "", vcs,
			Info{Version: "dev", Commit: "0123abcd", Date: "2026-11-29T10:00:00Z", Modified: true}},
		{"go install at a version", "", "", "", installed,
			Info{Version: "v1.2.3", Commit: "unknown", Date: "unknown"}},
		{"nothing recorded", "", "", "", nil,
			Info{Version: "dev", Commit: "unknown", Date: "unknown"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := read(tc.version, tc.commit, tc.date, tc.bi)
			tc.want.GoVersion, tc.want.Platform = runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH
			if got != tc.want {
				t.Errorf("read = %+v\nwant   %+v", got, tc.want)
			}
		})
	}
}

func TestString(t *testing.T) {
	i := Info{Version: "v1.0.0", Commit: "abc", Date: "2026-11-29T10:00:00Z", Modified: true,
		GoVersion: "go1.26.8", Platform: "linux/amd64"}
	want := "edge-agent v1.0.0\ncommit: abc (modified)\nbuilt:  2026-11-29T10:00:00Z\ngo:     go1.26.8 linux/amd64\n"
	if got := i.String("edge-agent"); got != want {
		t.Errorf("String =\n%s\nwant\n%s", got, want)
	}
	if !strings.HasPrefix(Read().String("x"), "x ") {
		t.Error("Read().String does not start with the name")
	}
}
