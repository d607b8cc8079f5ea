package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/meshrig/meshrig/format"
)

func newFormats(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "formats",
		Short: "List the file formats meshrig reads and writes",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "%-10s %-18s %s\n", "format", "extensions", "can")
			for _, f := range format.Formats() {
				var can []string
				if f.Mesh != nil {
					can = append(can, "read mesh / frame sequence")
				}
				if f.Cache != nil {
					can = append(can, "read point cache")
				}
				if f.Scene != nil {
					reads := f.SceneReads
					if reads == "" {
						reads = "animation + rig"
					}
					can = append(can, "read "+reads)
				}
				if f.Write != nil {
					can = append(can, "write rig")
				}
				if f.Joints != nil {
					can = append(can, "read ground-truth skeleton (--truth)")
				}
				if f.Note != "" {
					can = append(can, f.Note)
				}
				exts := strings.Join(f.Exts, " ")
				fmt.Fprintf(w, "%-10s %-18s %s\n", f.Name, exts, strings.Join(can, ", "))
			}
			fmt.Fprintln(w, "\nAny input may be gzip-compressed (name.obj.gz).")
			return nil
		},
	}
}
