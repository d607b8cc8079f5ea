package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/meshrig/meshrig/format"
)

// loadFlags are the input flags of every command that reads an animation.
type loadFlags struct {
	rest string
	fps  float64
	clip string
}

func (l *loadFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&l.rest, "rest", "", "rest pose: a mesh file, or frame:K (default: rest.* / reference.* in a folder, else frame 1)")
	cmd.Flags().Float64Var(&l.fps, "fps", 0, "frame rate of frame sequences / sampling rate of glTF animations (default: 30 / the file's own keys)")
	cmd.Flags().StringVar(&l.clip, "clip", "", "read only the glTF animation of this name")
}

func (l *loadFlags) load(ctx context.Context, g *globals, inputs []string) (*format.Input, error) {
	update, finish := g.progress("reading")
	defer finish()
	in, err := format.Load(inputs, format.LoadOptions{Rest: l.rest, FPS: l.fps, Clip: l.clip, Progress: update})
	if err == nil {
		err = ctx.Err() // TODO(lead): pass ctx once format.LoadOptions has Context
	}
	return in, err
}
