package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

func newVersion(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print meshrig's version, the source revision it was built from and the Go version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), versionText())
			return nil
		},
	}
}

// versionText describes the build: the module version ("(devel)" for a
// build from a checkout), the VCS revision and time with "+dirty" for
// uncommitted changes (go build and go install stamp these; go run and
// go test do not), and the Go version and platform.
func versionText() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "meshrig (no build information) " + runtime.Version()
	}
	s := "meshrig " + info.Main.Version
	set := map[string]string{}
	for _, kv := range info.Settings {
		set[kv.Key] = kv.Value
	}
	if rev := set["vcs.revision"]; rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		s += " revision " + rev
		if t := set["vcs.time"]; t != "" {
			s += " (" + t + ")"
		}
		if set["vcs.modified"] == "true" && !strings.HasSuffix(info.Main.Version, "+dirty") {
			s += " +dirty"
		}
	}
	return s + fmt.Sprintf(" %s %s/%s", info.GoVersion, runtime.GOOS, runtime.GOARCH)
}
