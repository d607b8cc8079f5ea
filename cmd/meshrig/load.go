package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/meshrig/meshrig/format"
)

// loadFlags are the input flags of every command that reads an animation.
type loadFlags struct {
	rest   string
	fps    float64
	clip   string
	object string
	frames format.FrameRange
}

func (l *loadFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&l.rest, "rest", "", "rest pose: a mesh file, or frame:K (default: rest.* / reference.* in a folder, else frame 1)")
	cmd.Flags().Float64Var(&l.fps, "fps", 0, "frame rate of frame sequences (default 30); glTF and Collada animations are sampled at it, or finer where needed so each clip ends on its last key (default: the file's evenly spaced keys, else 30; meshrig info shows the rate used)")
	cmd.Flags().StringVar(&l.clip, "clip", "", "read only the animation (glTF) or clip (Collada) of this name")
	cmd.Flags().StringVar(&l.object, "object", "", "read only the mesh at this path of an Alembic file (meshrig info lists them; default: every animated mesh, as one)")
	cmd.Flags().Var(framesFlag{&l.frames}, "frames", "keep frames A to B (1-based, inclusive; A: or :B open) of each clip: of every folder, glob, point cache and glTF or Collada animation")
}

func (l *loadFlags) load(ctx context.Context, g *globals, inputs []string) (*format.Input, error) {
	update, finish := g.progress("reading")
	in, err := format.Load(inputs, format.LoadOptions{
		Rest: l.rest, FPS: l.fps, Clip: l.clip, Object: l.object, Frames: l.frames, Context: ctx,
		Progress: func(done, total int) { update("", done, total) },
	})
	finish(err)
	return in, err
}

// framesFlag parses --frames A:B as the flag is read, so a bad range is
// refused before any input is.
type framesFlag struct{ r *format.FrameRange }

func (f framesFlag) String() string {
	if f.r == nil {
		return ""
	}
	return f.r.String()
}

func (f framesFlag) Set(s string) error {
	r, err := format.ParseFrameRange(s)
	if err != nil {
		return err
	}
	*f.r = r
	return nil
}

func (f framesFlag) Type() string { return "A:B" }
