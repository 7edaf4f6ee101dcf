// SVG boards of the five games. They only draw what the server sends (the board as data, the
// cells of legal moves, the last move and the PV); every rule decision is made by the server.
//
// drawBoard(game, board, overlay) returns an <svg>. Every clickable cell carries data-cell="name"
// (the game's own square names, as in its move notation), and every piece carries data
// attributes that say what it is (the browser test compares them with the engine's `d`).
// overlay: {targets: Set of cells, selected: [cells], last: [cells], pv: {paths: [[cells]...]},
//           pvFirstSide: 0|1, quiet: targets only on hover, flipped: turned half a turn,
//           winning: [cells] of a won game's road, five or chain}
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';

function el(name, attributes, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, attributes) {
  const node = el('text', Object.assign({x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central'}, attributes || {}), parent);
  node.textContent = content;
  return node;
}

function title(parent, content) {
  el('title', {}, parent).textContent = content;
}

const letters = 'abcdefghijklmnopqrstuvwxyz';

// "1 flat", "2 flats": a count and its word, singular for exactly one (the page's words too).
function plural(count, word, words = word + 's') { return `${count} ${count === 1 ? word : words}`; }

// ---- Tak: squares, a1 at the bottom left. A stack shows its top piece large and, along the
// left edge, every piece from the bottom up, so a stack of any height can be read.
function takLayout(board) {
  const n = board.size, cell = 64, margin = 24;
  const center = (name) => {
    const column = letters.indexOf(name[0]), row = parseInt(name.slice(1), 10) - 1;
    return {x: margin + column * cell + cell / 2, y: margin + (n - 1 - row) * cell + cell / 2};
  };
  const cells = [];
  for (let row = 0; row < n; ++row) for (let column = 0; column < n; ++column) cells.push(letters[column] + (row + 1));
  // A PV's wall or capstone placement (Sc3, Cc3) is marked S or C beside its number.
  const pvLetter = (move) => (/^[SC][a-z][1-9]/.test(move) ? move[0] : '');
  return {width: 2 * margin + n * cell, height: 2 * margin + n * cell + 50, cell, center, cells, pvLetter, draw(svg) {
    for (const name of cells) {
      const {x, y} = center(name);
      const g = el('g', {'data-cell': name, class: 'cell'}, svg);
      el('rect', {x: x - cell / 2, y: y - cell / 2, width: cell, height: cell, class: 'tak-square'}, g);
      const stack = board.stacks[name];
      if (!stack) continue;
      const top = stack[stack.length - 1];
      const stone = top === 'S' ? 'wall' : top === 'C' ? 'cap' : 'flat';
      const colours = stack.replace(/[SC]$/, '');
      const piece = el('g', {'data-stack': stack, class: 'tak-stack'}, g);
      // One sentence a stack, its pieces apart (a page's text runs the titles together).
      title(piece, `${name}: ${colours.split('').map((c) => (c === '1' ? 'white' : 'black')).join(', ')} (bottom to top), top ${stone}. `);
      const owner = colours[colours.length - 1] === '1' ? 'white' : 'black';
      if (colours.length > 1) {
        const slot = Math.min(6, (cell - 8) / colours.length);
        for (let i = 0; i < colours.length; ++i)
          el('rect', {x: x - cell / 2 + 3, y: y + cell / 2 - 4 - (i + 1) * slot, width: 9, height: Math.max(1, slot - 1),
                      class: colours[i] === '1' ? 'piece-white' : 'piece-black'}, piece);
        text(piece, x + cell / 2 - 9, y - cell / 2 + 9, String(colours.length), {class: 'stack-height'});
      }
      if (stone === 'flat') el('rect', {x: x - 16, y: y - 16, width: 32, height: 32, rx: 4, class: 'piece-' + owner}, piece);
      else if (stone === 'wall') el('rect', {x: x - 6, y: y - 19, width: 12, height: 38, rx: 2, class: 'piece-' + owner, transform: `rotate(35 ${x} ${y})`}, piece);
      else el('circle', {cx: x, cy: y, r: 16, class: 'piece-' + owner}, piece);
    }
    for (let i = 0; i < n; ++i) {
      text(svg, margin + i * cell + cell / 2, margin + n * cell + 10, letters[i], {class: 'coordinate'});
      text(svg, margin / 2, margin + (n - 1 - i) * cell + cell / 2, String(i + 1), {class: 'coordinate'});
    }
    const [white, black] = board.reserves;
    text(svg, (2 * margin + n * cell) / 2, margin + n * cell + 26,
         `White: ${white[0]}+${white[1]}C left, ${plural(board.flats[0], 'flat')}`, {class: 'caption'});
    text(svg, (2 * margin + n * cell) / 2, margin + n * cell + 42,
         `Black: ${black[0]}+${black[1]}C left, ${plural(board.flats[1], 'flat')} · komi ${board.komi}`, {class: 'caption'});
  }};
}

// ---- Gomoku: stones on the intersections, a1 at the bottom left; under renju, Black's
// forbidden points (from the server) are marked with a cross.
function gomokuLayout(board) {
  const w = board.width, h = board.height, cell = Math.max(22, Math.min(36, Math.floor(540 / Math.max(w, h)))), margin = 40;
  const center = (name) => {
    const column = letters.indexOf(name[0]), row = parseInt(name.slice(1), 10);
    return {x: margin + column * cell, y: margin + (h - row) * cell};
  };
  const cells = [];
  for (let row = 1; row <= h; ++row) for (let column = 0; column < w; ++column) cells.push(letters[column] + row);
  return {width: 2 * margin + (w - 1) * cell, height: 2 * margin + (h - 1) * cell, cell, center, cells, draw(svg) {
    el('rect', {x: 0, y: 0, width: 2 * margin + (w - 1) * cell, height: 2 * margin + (h - 1) * cell, class: 'wood'}, svg);
    for (let i = 0; i < w; ++i) el('line', {x1: margin + i * cell, y1: margin, x2: margin + i * cell, y2: margin + (h - 1) * cell, class: 'grid'}, svg);
    for (let i = 0; i < h; ++i) el('line', {x1: margin, y1: margin + i * cell, x2: margin + (w - 1) * cell, y2: margin + i * cell, class: 'grid'}, svg);
    for (let i = 0; i < w; ++i) text(svg, margin + i * cell, margin - cell / 2 - 6, letters[i], {class: 'coordinate'});
    for (let i = 0; i < h; ++i) text(svg, margin - cell / 2 - 8, margin + (h - 1 - i) * cell, String(i + 1), {class: 'coordinate'});
    const forbidden = new Set(board.forbidden || []);
    const blocked = new Set(board.blocked || []);
    for (const name of cells) {
      const {x, y} = center(name);
      const g = el('g', {'data-cell': name, class: 'cell'}, svg);
      el('circle', {cx: x, cy: y, r: cell / 2, class: 'hit'}, g);
      const stone = board.stones[name];
      if (stone) el('circle', {cx: x, cy: y, r: cell * 0.44, class: stone === 'x' ? 'piece-black' : 'piece-white', 'data-stone': stone}, g);
      else if (blocked.has(name)) el('rect', {x: x - cell * 0.4, y: y - cell * 0.4, width: cell * 0.8, height: cell * 0.8, class: 'blocked', 'data-blocked': '1'}, g);
      else if (forbidden.has(name)) {
        const r = cell * 0.25;
        const mark = el('g', {class: 'forbidden', 'data-forbidden': '1'}, g);
        title(mark, `${name}: forbidden for Black (renju)`);
        el('line', {x1: x - r, y1: y - r, x2: x + r, y2: y + r}, mark);
        el('line', {x1: x - r, y1: y + r, x2: x + r, y2: y - r}, mark);
      }
    }
  }};
}

// ---- TwixT: holes, a1 at the top left, corners missing. x (red) joins the top and bottom rows,
// o (black) the left and right columns; the border lines show which rows each may not use.
function twixtLayout(board) {
  const n = board.size, cell = Math.max(20, Math.min(34, Math.floor(600 / n))), margin = 30;
  const center = (name) => {
    const column = letters.indexOf(name[0]), row = parseInt(name.slice(1), 10) - 1;
    return {x: margin + column * cell + cell / 2, y: margin + row * cell + cell / 2};
  };
  const corner = (c, r) => (c === 0 || c === n - 1) && (r === 0 || r === n - 1);
  const cells = [];
  for (let row = 0; row < n; ++row) for (let column = 0; column < n; ++column) if (!corner(column, row)) cells.push(letters[column] + (row + 1));
  return {width: 2 * margin + n * cell, height: 2 * margin + n * cell, cell, center, cells, draw(svg) {
    el('rect', {x: 0, y: 0, width: 2 * margin + n * cell, height: 2 * margin + n * cell, class: 'twixt-ground'}, svg);
    const a = margin + cell, b = margin + (n - 1) * cell;
    el('line', {x1: a, y1: a, x2: b, y2: a, class: 'border-x'}, svg);
    el('line', {x1: a, y1: b, x2: b, y2: b, class: 'border-x'}, svg);
    el('line', {x1: a, y1: a, x2: a, y2: b, class: 'border-o'}, svg);
    el('line', {x1: b, y1: a, x2: b, y2: b, class: 'border-o'}, svg);
    for (let i = 0; i < n; ++i) {
      text(svg, margin + i * cell + cell / 2, margin / 2, letters[i], {class: 'coordinate'});
      text(svg, margin / 2, margin + i * cell + cell / 2, String(i + 1), {class: 'coordinate'});
    }
    for (const [from, to] of board.bridges) {
      const p = center(from), q = center(to);
      el('line', {x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: 'bridge-' + board.pegs[from], 'data-bridge': `${from}${to}`}, svg);
    }
    for (const name of cells) {
      const {x, y} = center(name);
      const g = el('g', {'data-cell': name, class: 'cell'}, svg);
      el('circle', {cx: x, cy: y, r: cell / 2, class: 'hit'}, g);
      const peg = board.pegs[name];
      if (peg) el('circle', {cx: x, cy: y, r: cell * 0.3, class: 'peg-' + peg, 'data-peg': peg}, g);
      else el('circle', {cx: x, cy: y, r: 2.5, class: 'hole'}, g);
    }
    if (board.swapped) text(svg, margin + (n * cell) / 2, margin + n * cell + margin / 2, 'o swapped', {class: 'caption'});
  }};
}

// ---- Ur: columns A (top), B, C (bottom), rows 1-8 left to right. The pieces waiting to enter
// and those borne off sit in the gaps of the board (A5/A6 for Light, C5/C6 for Dark).
function urLayout(board) {
  const cell = 66, margin = 20;
  const rowOf = {A: 0, B: 1, C: 2};
  const place = {'pool-L': {column: 'A', row: 5}, 'off-L': {column: 'A', row: 6}, 'pool-D': {column: 'C', row: 5}, 'off-D': {column: 'C', row: 6}};
  const center = (name) => {
    const spot = place[name] || {column: name[0], row: parseInt(name.slice(1), 10)};
    return {x: margin + (spot.row - 1) * cell + cell / 2, y: margin + rowOf[spot.column] * cell + cell / 2};
  };
  const cells = board.board_tiles.concat(['pool-L', 'off-L', 'pool-D', 'off-D']);
  const rosettes = new Set(board.rosettes);
  return {width: 2 * margin + 8 * cell, height: 2 * margin + 3 * cell + 40, cell, center, cells, draw(svg) {
    for (const name of board.board_tiles) {
      const {x, y} = center(name);
      const g = el('g', {'data-cell': name, class: 'cell'}, svg);
      el('rect', {x: x - cell / 2 + 1, y: y - cell / 2 + 1, width: cell - 2, height: cell - 2, rx: 6, class: 'ur-tile'}, g);
      if (rosettes.has(name)) {
        for (let i = 0; i < 8; ++i) {
          const angle = (i * Math.PI) / 4;
          el('ellipse', {cx: x + 11 * Math.cos(angle), cy: y + 11 * Math.sin(angle), rx: 9, ry: 4, class: 'rosette', transform: `rotate(${(i * 45)} ${x + 11 * Math.cos(angle)} ${y + 11 * Math.sin(angle)})`}, g);
        }
      }
      text(g, x - cell / 2 + 11, y - cell / 2 + 10, name, {class: 'tile-name'});
      const piece = board.tiles[name];
      if (piece) el('circle', {cx: x, cy: y, r: 20, class: piece === 'L' ? 'piece-white' : 'piece-black', 'data-piece': piece}, g);
    }
    const pools = [['pool-L', board.waiting[0], 'L', 'waiting'], ['off-L', board.scored[0], 'L', 'off'], ['pool-D', board.waiting[1], 'D', 'waiting'], ['off-D', board.scored[1], 'D', 'off']];
    for (const [name, count, side, label] of pools) {
      const {x, y} = center(name);
      const g = el('g', {'data-cell': name, class: 'cell', 'data-count': String(count)}, svg);
      el('rect', {x: x - cell / 2 + 4, y: y - cell / 2 + 4, width: cell - 8, height: cell - 8, rx: 10, class: 'ur-pool'}, g);
      if (count > 0) el('circle', {cx: x, cy: y + 4, r: 15, class: side === 'L' ? 'piece-white' : 'piece-black'}, g);
      text(g, x, y + 4, String(count), {class: side === 'L' ? 'count-on-white' : 'count-on-black'});
      text(g, x, y - cell / 2 + 12, label, {class: 'tile-name'});
    }
    const roll = board.roll === null || board.roll === undefined ? 'no roll' : `roll ${board.roll}`;
    text(svg, margin + 4 * cell, margin + 3 * cell + 20, `${board.ruleset}, ${plural(board.pieces, 'piece')} · ${roll}`, {class: 'caption', 'data-roll': board.roll === null ? '' : String(board.roll)});
  }};
}

// ---- Expendibots: 8x8, a1 at the bottom left; a stack is a disc with its height; the squares
// the last BOOM destroyed are marked.
function expendibotsLayout(board) {
  const cell = 60, margin = 24;
  const center = (name) => {
    const column = letters.indexOf(name[0]), row = parseInt(name.slice(1), 10) - 1;
    return {x: margin + column * cell + cell / 2, y: margin + (7 - row) * cell + cell / 2};
  };
  const cells = [];
  for (let row = 0; row < 8; ++row) for (let column = 0; column < 8; ++column) cells.push(letters[column] + (row + 1));
  const blast = new Set(board.blast || []);
  return {width: 2 * margin + 8 * cell, height: 2 * margin + 8 * cell, cell, center, cells, draw(svg) {
    for (const name of cells) {
      const {x, y} = center(name);
      const column = letters.indexOf(name[0]), row = parseInt(name.slice(1), 10) - 1;
      const g = el('g', {'data-cell': name, class: 'cell'}, svg);
      el('rect', {x: x - cell / 2, y: y - cell / 2, width: cell, height: cell, class: (column + row) % 2 ? 'light-square' : 'dark-square'}, g);
      if (blast.has(name)) {
        const mark = el('g', {class: 'blast', 'data-blast': '1'}, g);
        for (let i = 0; i < 8; ++i) {
          const angle = (i * Math.PI) / 4;
          el('line', {x1: x, y1: y, x2: x + 24 * Math.cos(angle), y2: y + 24 * Math.sin(angle)}, mark);
        }
      }
      const stack = board.stacks[name];
      if (stack) {
        const piece = el('g', {'data-stack': stack}, g);
        el('circle', {cx: x, cy: y, r: 22, class: stack[0] === 'w' ? 'piece-white' : 'piece-black'}, piece);
        text(piece, x, y, stack.slice(1), {class: stack[0] === 'w' ? 'count-on-white' : 'count-on-black'});
      }
    }
    for (let i = 0; i < 8; ++i) {
      text(svg, margin + i * cell + cell / 2, margin + 8 * cell + 12, letters[i], {class: 'coordinate'});
      text(svg, margin / 2, margin + (7 - i) * cell + cell / 2, String(i + 1), {class: 'coordinate'});
    }
  }};
}

const layouts = {tak: takLayout, gomoku: gomokuLayout, twixt: twixtLayout, ur: urLayout, expendibots: expendibotsLayout};

// Highlights, the last move and the PV, drawn over any board from the cells' centres.
function drawOverlay(svg, layout, overlay) {
  const ring = (name, cls, r) => {
    if (!layout.cells.includes(name)) return;
    const {x, y} = layout.center(name);
    el('circle', {cx: x, cy: y, r, class: cls, 'data-overlay': name}, svg);
  };
  const r = layout.cell * 0.42;
  // A won game's road, five or chain: one line through its cells' centres.
  const winning = (overlay.winning || []).filter((name) => layout.cells.includes(name));
  if (winning.length) {
    el('polyline', {points: winning.map((name) => { const {x, y} = layout.center(name); return `${x},${y}`; }).join(' '),
                    class: 'winning-line', 'data-winning': winning.join(' ')}, svg);
  }
  for (const name of overlay.last || []) ring(name, 'last-move', r);
  for (const name of overlay.selected || []) ring(name, 'selected', r);
  // Quiet: the dots show only on the cell under the pointer (the page marks it "hover").
  for (const name of overlay.targets || []) ring(name, overlay.quiet ? 'target quiet' : 'target', layout.cell * 0.17);
  const paths = (overlay.pv && overlay.pv.paths) || [];
  const pvMoves = (overlay.pv && overlay.pv.moves) || [];
  paths.slice(0, 8).forEach((path, i) => {
    if (!path.length) return;
    const side = (overlay.pvFirstSide + i) % 2;
    const first = layout.center(path[0]), last = layout.center(path[path.length - 1]);
    if (path.length > 1) el('line', {x1: first.x, y1: first.y, x2: last.x, y2: last.y, class: 'pv-arrow pv-side-' + side, 'marker-end': 'url(#arrow)'}, svg);
    const letter = layout.pvLetter ? layout.pvLetter(pvMoves[i] || '') : '';
    const x = last.x + layout.cell * 0.28, y = last.y - layout.cell * 0.28;
    if (letter) el('rect', {x: x - 13, y: y - 9, width: 26, height: 18, rx: 9, class: 'pv-mark pv-side-' + side}, svg);
    else el('circle', {cx: x, cy: y, r: 9, class: 'pv-mark pv-side-' + side}, svg);
    text(svg, x, y, String(i + 1) + letter, {class: 'pv-number', 'data-pv': path.join(' '), 'data-pv-stone': letter});
  });
}

function drawBoard(game, board, overlay) {
  const layout = layouts[game](board);
  const svg = el('svg', {viewBox: `0 0 ${layout.width} ${layout.height}`, class: 'board board-' + game, 'data-game': game});
  const defs = el('defs', {}, svg);
  const marker = el('marker', {id: 'arrow', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse'}, defs);
  el('path', {d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow-head'}, marker);
  // Flipped: the board turned half a turn (the second player at the bottom), its words upright.
  const ground = overlay && overlay.flipped
    ? el('g', {transform: `rotate(180 ${layout.width / 2} ${layout.height / 2})`, 'data-flipped': '1'}, svg) : svg;
  layout.draw(ground);
  drawOverlay(ground, layout, overlay || {});
  if (ground !== svg) {
    for (const words of ground.querySelectorAll('text'))
      words.setAttribute('transform', `rotate(180 ${words.getAttribute('x')} ${words.getAttribute('y')})`);
  }
  return svg;
}
