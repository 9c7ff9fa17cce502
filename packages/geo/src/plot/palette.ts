/**
 * Fill colours for maps coloured so that neighbours differ: soft, mutually distinguishable tones
 * (in the spirit of ColorBrewer's qualitative "Set3"/"Pastel" sets), dark outlines and dots stay
 * readable on all of them. The first six suffice for any planar map coloured smallest-last; the
 * rest serve maps of overlapping polygons, whose graphs can need more. Beyond the palette, colours
 * repeat.
 */
export const NEIGHBOR_PALETTE: readonly string[] = [
  '#8dd3c7', // teal
  '#fdb462', // orange
  '#bebada', // lavender
  '#b3de69', // green
  '#fb8072', // salmon
  '#80b1d3', // blue
  '#fccde5', // pink
  '#ffed6f', // yellow
  '#bc80bd', // purple
  '#d9d9d9', // grey
];
