// The games with a board of their own: replay/web/boards/GAME.js, exporting `draw` as
// replay/web/board.js describes, and its stylesheet GAME.css. Any other game is drawn by the
// generic board.
const own = (game) => ({ load: () => import(`/static/boards/${game}.js`), style: `/static/boards/${game}.css` });

export const BOARDS = {
  worldgainer: own("worldgainer"),
  illuminati: own("illuminati"),
  kami: own("kami"),
  grail: own("grail"),
  edge: own("edge"),
};
