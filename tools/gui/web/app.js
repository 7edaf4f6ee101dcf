// The GUI's page: forms, the connection to the server, and what it shows. It only draws the
// server's messages and sends clicks; legality, results, clocks and dice are the server's.
'use strict';

const GAMES = ['tak', 'gomoku', 'twixt', 'ur', 'expendibots'];
// The settings each game's variant takes (the server checks them, as the arbiter checks its flags).
const VARIANT_FIELDS = {
  tak: [['size', 'Size', 'number', '6'], ['komi', 'Komi', 'number', '0']],
  gomoku: [['size', 'Size', 'number', '15'], ['rule', 'Rule', ['freestyle', 'standard', 'renju'], 'freestyle']],
  twixt: [['size', 'Size', 'number', '24']],
  ur: [['ruleset', 'Ruleset', ['finkel', 'masters', 'blitz'], 'finkel'], ['pieces', 'Pieces', 'number', '']],
  expendibots: [],
};

let socket = null;
let engines = [];
const panels = {};
const watch = {id: null, games: new Map(), standings: null, over: false};

function $(selector) { return document.querySelector(selector); }

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else showError('not connected to the server');
}

// Errors go to a bar under the header that pushes the page down instead of covering its
// controls; each can be closed at once (×) and goes by itself after 8 s.
function showError(message) {
  const box = $('#errors');
  const line = document.createElement('div');
  line.className = 'error';
  const words = document.createElement('span');
  words.textContent = message;
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'error-close';
  close.textContent = '×';
  close.title = 'dismiss';
  close.addEventListener('click', () => line.remove());
  line.append(words, close);
  box.appendChild(line);
  while (box.children.length > 3) box.removeChild(box.firstChild);
  setTimeout(() => line.remove(), 8000);
}

function formatClock(ms) {
  if (ms === null || ms === undefined) return '';
  const negative = ms < 0;
  ms = Math.abs(ms);
  const minutes = Math.floor(ms / 60000), seconds = Math.floor((ms % 60000) / 1000), tenths = Math.floor((ms % 1000) / 100);
  return `${negative ? '-' : ''}${minutes}:${String(seconds).padStart(2, '0')}.${tenths}`;
}

// Scores beyond this many centipawns are an engine's way of saying a proven win or loss.
const PROVEN = 30000;
function formatScore(info) {
  if (!info) return '';
  if (info.mate !== undefined) return info.mate > 0 ? `win in ${info.mate}` : `loss in ${-info.mate}`;
  if (info.score !== undefined) {
    if (Math.abs(info.score) >= PROVEN) return info.score > 0 ? 'proven win' : 'proven loss';
    return (info.score >= 0 ? '+' : '') + (info.score / 100).toFixed(2);
  }
  return '';
}

function describeInfo(info, sideNames) {
  if (!info || Object.keys(info).length === 0) return '';
  const parts = [];
  if (info.side !== undefined && sideNames) parts.push(sideNames[info.side]);
  if (info.depth !== undefined) parts.push(`depth ${info.depth}${info.seldepth !== undefined ? '/' + info.seldepth : ''}`);
  // An engine scores for the side it moves for: the label says which (the graph is the first
  // player's view).
  const score = formatScore(info);
  if (score) parts.push(info.side !== undefined && sideNames ? `score ${score} for ${sideNames[info.side]}` : `score ${score}`);
  if (info.nodes !== undefined) parts.push(plural(info.nodes, 'node'));
  if (info.nps !== undefined) parts.push(`${info.nps} nps`);
  if (info.pv && info.pv.moves && info.pv.moves.length) parts.push('pv ' + info.pv.moves.join(' '));
  if (info.best) parts.push(`best ${info.best.move} after ${info.best.searched_ms / 1000} s`);
  if (info.text) parts.push(info.text);
  return parts.join(' · ');
}

// ---- Score graph: centipawns from the first player's view, clamped to +-10 (pawns), with its
// axes labelled: the score on the left, the move numbers along the bottom.
function drawGraph(container, scores, currentPly, onClick, movers) {
  container.textContent = '';
  const width = 360, height = 130, left = 30, right = 8, top = 6, bottom = 26;
  const svg = el('svg', {viewBox: `0 0 ${width} ${height}`, class: 'score-graph'}, container);
  const plotHeight = height - top - bottom, middle = top + plotHeight / 2;
  el('rect', {x: left, y: top, width: width - left - right, height: plotHeight, class: 'graph-ground'}, svg);
  el('line', {x1: left, y1: middle, x2: width - right, y2: middle, class: 'graph-zero'}, svg);
  const n = Math.max(scores.length, 1);
  const x = (ply) => left + ((width - left - right) * ply) / n;
  const y = (score) => middle - ((plotHeight / 2) * Math.max(-1000, Math.min(1000, score))) / 1000;
  const label = (lx, ly, words, anchor, className) => {
    const node = el('text', {x: lx, y: ly, 'text-anchor': anchor, 'dominant-baseline': 'central', class: className}, svg);
    node.textContent = words;
    return node;
  };
  for (const [score, words] of [[1000, '+10'], [0, '0'], [-1000, '−10']]) label(left - 4, y(score), words, 'end', 'graph-label');
  // Up to five move numbers along the bottom (a move is two plies), and the axis's name.
  const moves = Math.ceil(n / 2);
  const step = Math.max(1, Math.ceil(moves / 5));
  for (let move = 1; move <= moves; move += step) label(x(2 * move - 1), height - bottom + 9, String(move), 'middle', 'graph-label');
  label(left, height - 6, 'score for the first player (pawns) by move', 'start', 'graph-axis');
  // One line per side: each engine's scores joined over the other side's plies (a person's plies
  // have none), so two engines' different scales never zig-zag into one line.
  for (const side of [0, 1]) {
    const points = [];
    scores.forEach((score, i) => {
      const mover = movers ? movers[i] : i % 2;
      if (mover !== side || score === null || score === undefined) return;
      points.push(`${x(i + 1).toFixed(1)},${y(score).toFixed(1)}`);
    });
    if (points.length > 1) el('polyline', {points: points.join(' '), class: 'graph-line side-' + side, 'data-side': side}, svg);
    else if (points.length === 1) { const [px, py] = points[0].split(','); el('circle', {cx: px, cy: py, r: 1.5, class: 'graph-dot'}, svg); }
  }
  if (currentPly !== undefined) el('line', {x1: x(currentPly), y1: top, x2: x(currentPly), y2: top + plotHeight, class: 'graph-cursor'}, svg);
  svg.setAttribute('data-points', String(scores.filter((s) => s !== null && s !== undefined).length));
  if (onClick) svg.addEventListener('click', (event) => {
    const box = svg.getBoundingClientRect();
    const ply = Math.round((((event.clientX - box.left) / box.width) * width - left) / ((width - left - right) / n));
    onClick(Math.max(0, Math.min(scores.length, ply)));
  });
}

// ---- A board with move input: clicks choose among the legal moves the server sent.
class BoardPanel {
  constructor(prefix, sendMove) {
    this.prefix = prefix;
    this.sendMove = sendMove;
    this.state = null;
    this.info = null;
    this.selection = [];
    this.kind = null;
    this.clockBase = 0;
    this.flipped = false;
    $(`#${prefix}-board`).addEventListener('click', (event) => {
      const cell = event.target.closest('[data-cell]');
      if (cell) this.click(cell.getAttribute('data-cell'));
    });
    // Quiet boards: a cell's legal-move dot shows while the pointer is on it.
    $(`#${prefix}-board`).addEventListener('mouseover', (event) => {
      const cell = event.target.closest('[data-cell]');
      const name = cell ? cell.getAttribute('data-cell') : null;
      for (const dot of $(`#${prefix}-board`).querySelectorAll('.target.quiet'))
        dot.classList.toggle('hover', dot.getAttribute('data-overlay') === name);
    });
    const flip = $(`#${prefix}-flip`);
    if (flip) flip.addEventListener('click', () => this.flip());
  }

  flip() {
    this.flipped = !this.flipped;
    if (this.state) this.draw();
    else askPreview(this.prefix);  // the empty page's board turns too
  }

  // Play: step through the game while it goes on (the server sends each ply's board); the live
  // game takes moves again at its last ply.
  step(ply) {
    const state = this.state;
    if (!state || state.mode !== 'play') return;
    ply = Math.max(0, Math.min(state.moves.length, ply));
    if (ply === state.moves.length) { this.live(); return; }
    send({type: 'view', id: state.id, ply});
  }
  showView(message) {
    if (!this.state || this.state.id !== message.id) return;
    this.view = message;
    this.selection = [];
    this.draw();
  }
  live() {
    this.view = null;
    this.draw();
  }
  viewedPly() { return this.view ? this.view.ply : this.state ? this.state.moves.length : 0; }

  legal() { return (this.state && this.state.legal) || []; }
  kinds() { return [...new Set(this.legal().filter((m) => m.k).map((m) => m.k))]; }

  candidates() {
    const kinds = this.kinds();
    if (kinds.length < 2) return this.legal();
    if (!kinds.includes(this.kind)) this.kind = kinds[0];
    return this.legal().filter((m) => !m.k || m.k === this.kind);
  }

  static startsWith(path, prefix) { return prefix.every((cell, i) => path[i] === cell); }

  forbidden(cell) { return !!(this.state && this.state.board && (this.state.board.forbidden || []).includes(cell)); }

  click(cell) {
    if (this.view) return;  // a past position: nothing to play there
    // A forbidden point (renju) is a legal move that loses at once: it takes a second click.
    if (this.forbidden(cell) && this.legal().some((m) => m.p.length === 1 && m.p[0] === cell)) {
      if (this.confirming !== cell) {
        this.confirming = cell;
        this.selection = [];
        this.draw();
        return;
      }
      this.confirming = null;
      const move = this.legal().find((m) => m.p.length === 1 && m.p[0] === cell);
      this.play(move.m);
      return;
    }
    this.confirming = null;
    const moves = this.candidates().filter((m) => m.p.length > 0);
    const extended = this.selection.concat([cell]);
    if (moves.some((m) => m.p.length >= extended.length && BoardPanel.startsWith(m.p, extended))) this.selection = extended;
    else if (moves.some((m) => m.p[0] === cell)) this.selection = [cell];
    else this.selection = [];
    const exact = moves.filter((m) => m.p.length === this.selection.length && BoardPanel.startsWith(m.p, this.selection));
    const longer = moves.filter((m) => m.p.length > this.selection.length && BoardPanel.startsWith(m.p, this.selection));
    if (this.selection.length && exact.length === 1 && longer.length === 0) {
      this.play(exact[0].m);
      return;
    }
    this.draw();
  }

  play(move) {
    this.selection = [];
    this.sendMove(move);
    this.draw();
  }

  targets() {
    const moves = this.candidates().filter((m) => m.p.length > this.selection.length && BoardPanel.startsWith(m.p, this.selection));
    return new Set(moves.map((m) => m.p[this.selection.length]).filter((cell) => !this.forbidden(cell)));
  }

  update(state) {
    $(`#tab-${this.prefix}`).classList.remove('empty');  // the hint and the preview board go
    const changed = !this.state || this.state.position !== state.position || this.state.id !== state.id;
    if (this.state && this.state.id === state.id && state.moves.length > this.state.moves.length) moveSound();
    if (!this.state || this.state.id !== state.id) this.lastKinds = null;  // another game, maybe another size
    this.state = state;
    if (changed) {
      this.selection = [];
      this.confirming = null;
    }
    if (this.view && this.view.id !== state.id) this.view = null;
    this.info = state.info && Object.keys(state.info).length ? state.info : null;
    this.clockBase = performance.now();
    this.draw();
  }

  updateInfo(info) {
    this.info = info;
    this.draw();
  }

  draw() {
    const state = this.state;
    if (!state) return;
    const box = $(`#${this.prefix}-board`);
    box.textContent = '';
    box.setAttribute('data-id', String(state.id));
    const pv = this.info && this.info.pv;
    // Before a piece is chosen, the dots are quiet (on hover): a whole board of them hides it.
    const board = this.view ? this.view.board : state.board;
    box.appendChild(drawBoard(state.game, board, {
      targets: this.view ? new Set() : this.targets(), selected: this.selection, last: board.last || [], winning: board.winning,
      pv: this.view ? null : pv, pvFirstSide: state.to_move, quiet: this.selection.length === 0, flipped: this.flipped,
    }));
    box.classList.toggle('viewing', !!this.view);
    const plyBox = $(`#${this.prefix}-ply`);
    if (plyBox && state.mode === 'play')
      plyBox.textContent = this.view ? `${this.view.ply} / ${state.moves.length} (${state.result ? 'game over' : 'the game goes on'})`
        : `${state.moves.length} / ${state.moves.length}`;
    // The kind of piece to place, when the moves of a cell differ only in that (Tak).
    // Tak's row stays in its place, its buttons off, while there is nothing to choose (the
    // other side's turn, the opening's flats, a finished game).
    const kindBox = $(`#${this.prefix}-kinds`);
    kindBox.textContent = '';
    const kinds = this.kinds();
    const offered = kinds.length >= 2 && !this.view;
    if (offered) {
      this.candidates();
      this.lastKinds = kinds;  // the placeholder row shows the same buttons (no cap on small boards)
    }
    for (const kind of offered ? kinds : state.game === 'tak' ? this.lastKinds || ['flat', 'wall', 'cap'] : []) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = kind;
      button.className = offered && kind === this.kind ? 'kind chosen' : 'kind';
      button.disabled = !offered;
      button.setAttribute('data-kind', kind);
      button.addEventListener('click', () => { this.kind = kind; this.selection = []; this.draw(); });
      kindBox.appendChild(button);
    }
    // Moves without cells (swap, pass, rolls) and the moves the cells clicked so far complete.
    const choices = $(`#${this.prefix}-choices`);
    choices.textContent = '';
    const moves = this.candidates();
    const exact = this.selection.length ? moves.filter((m) => m.p.length === this.selection.length && BoardPanel.startsWith(m.p, this.selection)) : [];
    for (const move of moves.filter((m) => m.p.length === 0).concat(exact)) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = move.m;
      button.setAttribute('data-move', move.m);
      button.addEventListener('click', () => this.play(move.m));
      choices.appendChild(button);
    }
    const warning = $(`#${this.prefix}-warning`);
    if (warning) {
      warning.textContent = this.confirming
        ? `${this.confirming} is forbidden for Black (renju): playing it loses at once. Click it again to play it anyway.` : '';
      warning.hidden = !this.confirming;
    }
    $(`#${this.prefix}-position`).textContent = this.view ? this.view.position : state.position;
    const result = $(`#${this.prefix}-result`);
    result.textContent = state.result ? `${state.result.score} {${state.result.reason}}` : '';
    result.setAttribute('data-score', state.result ? state.result.score : '');
    // A stopped analysis keeps its last evaluation on show, marked as such.
    const stopped = state.mode === 'analysis' && !state.analysing && this.info ? ' · stopped' : '';
    $(`#${this.prefix}-info`).textContent = describeInfo(this.info, state.side_names) + stopped;
    this.drawPlayers();
    this.drawMoves();
  }

  drawPlayers() {
    const state = this.state;
    const box = $(`#${this.prefix}-players`);
    box.textContent = '';
    for (let side = 0; side < 2; ++side) {
      const row = document.createElement('div');
      row.className = 'player' + (state.to_move === side && !state.result ? ' to-move' : '');
      const name = state.players[side] || '';
      const status = state.status ? state.status[side] : '';
      row.innerHTML = '';
      const label = document.createElement('span');
      label.textContent = name ? `${state.side_names[side]}: ${name}` : state.side_names[side];
      row.appendChild(label);
      if (status && status !== 'person') {
        const tag = document.createElement('span');
        tag.className = 'status status-' + status;
        tag.textContent = status;
        tag.setAttribute('data-status', status);
        row.appendChild(tag);
      }
      const reason = state.status_reasons ? state.status_reasons[side] : null;
      if (reason) {
        const why = document.createElement('span');
        why.className = 'status-reason';
        why.id = `${this.prefix}-reason-${side}`;
        why.textContent = reason;
        row.appendChild(why);
      }
      const clock = document.createElement('span');
      clock.className = 'clock';
      clock.id = `${this.prefix}-clock-${side}`;
      row.appendChild(clock);
      box.appendChild(row);
    }
    this.tickClocks();
  }

  tickClocks() {
    const state = this.state;
    if (!state || !state.clocks) return;
    for (let side = 0; side < 2; ++side) {
      const clock = state.clocks[side];
      const node = $(`#${this.prefix}-clock-${side}`);
      if (!node) continue;
      if (!clock) { node.textContent = ''; continue; }
      const ms = clock.running ? clock.ms - (performance.now() - this.clockBase) : clock.ms;
      node.textContent = formatClock(ms);
      node.classList.toggle('running', !!clock.running);
    }
  }

  drawMoves() {
    const state = this.state;
    const list = $(`#${this.prefix}-moves`);
    const scrolled = list.scrollTop;
    list.textContent = '';
    list.classList.add('numbered');
    const tools = $(`#${this.prefix}-record-tools`);
    if (tools) tools.hidden = !state.record;
    // The move shown: the analysis's, the ply stepped back to, or the live game's last.
    const shown = state.ply !== undefined ? state.ply : this.view ? this.view.ply : state.moves.length;
    const rows = new MoveRows(list, state.movers && state.movers[0] === 1 ? 1 : 0);
    if (state.tree) {
      drawTree(rows, state);
    } else {
      state.moves.forEach((move, i) => {
        const item = rows.move(i, move + (state.comments && state.comments[i] ? ` {${state.comments[i]}}` : ''));
        item.setAttribute('data-ply', String(i + 1));
        if (shown === i + 1) item.classList.add('current');
      });
    }
    // A finished game ends its list with the result (the analysis: its line's end).
    const result = state.mode === 'analysis' ? state.line_result : state.result;
    if (result) {
      const row = rows.cell('result-row', `${result.score} (${result.reason})`);
      row.setAttribute('data-result', result.score);
    }
    // The list keeps the move shown in view (it scrolls on its own, never the page).
    list.scrollTop = scrolled;
    const current = list.querySelector('.current') || (shown === state.moves.length ? list.lastElementChild : null);
    if (current) {
      if (current.offsetTop < list.scrollTop) list.scrollTop = current.offsetTop;
      else if (current.offsetTop + current.offsetHeight > list.scrollTop + list.clientHeight)
        list.scrollTop = current.offsetTop + current.offsetHeight - list.clientHeight;
    }
    drawGraph($(`#${this.prefix}-graph`), state.scores || [], state.ply !== undefined ? state.ply : state.moves.length,
              state.mode === 'analysis' ? (ply) => send({type: 'goto', id: state.id, ply}) : null, state.movers);
  }
}

// ---- Move lists, numbered as PTN writes them (1. a1 f6): a number, then two plies a row. When
// the second player moves first (a set-up position), the first row starts "1. …".
class MoveRows {
  constructor(list, offset) {
    this.list = list;
    this.offset = offset;  // 1 when the line's first ply is the second player's
    this.open = false;     // a row has its first ply and waits for the second
  }
  static number(ply, offset) { return Math.floor((ply + offset) / 2) + 1; }
  cell(className, text) {
    const item = document.createElement('li');
    item.className = className;
    item.textContent = text;
    this.list.appendChild(item);
    return item;
  }
  // The move at `ply` (from 0) of the main line, with its row's number where the row starts.
  move(ply, text) {
    const second = (ply + this.offset) % 2 === 1;
    if (!second) this.cell('num', `${MoveRows.number(ply, this.offset)}.`);
    else if (!this.open) { this.cell('num', `${MoveRows.number(ply, this.offset)}.`); this.cell('skip', '…'); }
    this.open = !second;
    return this.cell('move', text);
  }
  // A row across the list for the variations after a move; the main line's next row starts anew.
  variations() {
    if (this.open) this.cell('skip', '');
    this.open = false;
    return this.cell('variation', '');
  }
}

// The analysis's tree: its main line in rows, each move's alternatives in a row after it, in
// brackets, lichess-style; every move a click to show it.
function drawTree(rows, state) {
  const tree = state.tree;
  const mark = (element, node) => {
    element.setAttribute('data-node', String(node));
    if (node === state.node) element.classList.add('current');
  };
  // One variation inline: its moves with their numbers, and deeper variations in brackets after
  // the move they are alternatives to. Parts are words, move elements and brackets.
  const inline = (parts, node, ply) => {
    let first = true;
    for (let parent = null, at = node; at !== undefined; parent = at, at = tree[at].c[0], ply += 1) {
      const second = (ply + rows.offset) % 2 === 1;
      if (!second || first) parts.push(`${MoveRows.number(ply, rows.offset)}.${second ? '…' : ''}`);
      const span = document.createElement('span');
      span.className = 'move';
      span.textContent = tree[at].m;
      mark(span, at);
      parts.push(span);
      first = false;
      if (parent !== null && bracketed(parts, tree[parent].c.slice(1), ply)) first = true;
    }
  };
  // The alternatives to the move at `ply`, each in brackets; whether there were any.
  const bracketed = (parts, others, ply) => {
    for (const other of others) {
      parts.push('(');
      inline(parts, other, ply);
      parts.push(')');
    }
    return others.length > 0;
  };
  // Spaces between the parts, none inside the brackets.
  const write = (row, parts) => parts.forEach((part, i) => {
    if (i > 0 && parts[i - 1] !== '(' && part !== ')') row.append(' ');
    row.append(part);
  });
  let ply = 0, onMain = state.node === 0;
  for (let parent = 0, at = tree[0].c[0]; at !== undefined; parent = at, at = tree[at].c[0], ply += 1) {
    mark(rows.move(ply, tree[at].m), at);
    onMain = onMain || at === state.node;
    const parts = [];
    if (bracketed(parts, tree[parent].c.slice(1), ply)) write(rows.variations(), parts);
  }
  // The buttons follow the shown move: off the main line it can be promoted.
  $('#analysis-promote').disabled = onMain;
  $('#analysis-delete').disabled = state.node === 0;
}

// ---- Sounds: a short click for each new move, when the Sound box is ticked.
let audio = null;
function moveSound() {
  const box = $('#sound');
  if (!box || !box.checked) return;
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.08);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.09);
  } catch (error) { /* no audio here: silence */ }
}

// ---- The played game as a record: saved as a file, or opened in the analysis tab.
const RECORD_EXTENSIONS = {tak: 'ptn'};
function saveRecord() {
  const state = panels.play.state;
  if (!state || !state.record) return;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([state.record], {type: 'text/plain'}));
  link.download = `${state.game}-${state.id}.${RECORD_EXTENSIONS[state.game] || 'txt'}`;
  document.body.appendChild(link);
  link.click();
  setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
}
function analyseRecord() {
  const state = panels.play.state;
  if (state && state.record) openRecordInAnalysis(state.game, state.record);
}

// A record (a played game, a watched match's game) shown in the record form and opened.
function openRecordInAnalysis(game, text) {
  $('#record-text').value = text;
  const form = $('#record-form');
  form.elements.game.value = game;
  form.elements.index.value = '1';
  showTab('analysis');
  openAnalysis({type: 'load_record', game, text, index: 0, at: 'end'});  // at its last move, as lichess does
}

// ---- Engine options: what each engine declares that the page may set, asked once per engine.
// Only the values changed here are sent; the server checks each against the engine's limits.
const engineOptions = new Map();  // engine name -> [{name, type, value, min, max, choices}]
const optionRequests = new Set();

function drawEngineOptions() {
  const form = $('#play-setup');
  const seats = [0, 1].map((side) => ({key: `seat${side}`, engine: form.elements[`player${side}`].value,
                                       label: `${side === 0 ? 'First' : 'Second'} player, ${form.elements[`player${side}`].value}`}));
  drawOptionSets($('#play-options'), seats.filter((seat) => seat.engine && seat.engine !== 'person'));
  const engine = $('#analysis-engine').value;
  drawOptionSets($('#analysis-options'), engine ? [{key: 'analysis', engine, label: engine}] : []);
}

function drawOptionSets(details, seats) {
  const box = details.querySelector('.option-sets');
  for (const set of [...box.children])
    if (!seats.some((seat) => seat.key === set.getAttribute('data-seat') && seat.engine === set.getAttribute('data-engine'))) set.remove();
  details.hidden = seats.length === 0;
  for (const seat of seats) {
    let set = box.querySelector(`[data-seat="${seat.key}"]`);
    const options = engineOptions.get(seat.engine);
    if (set && (set.getAttribute('data-loaded') === '1' || !options)) continue;
    if (!options && !optionRequests.has(seat.engine)) {
      optionRequests.add(seat.engine);
      send({type: 'engine_options', engine: seat.engine});
    }
    if (set) set.remove();
    set = document.createElement('fieldset');
    set.className = 'option-set';
    set.setAttribute('data-seat', seat.key);
    set.setAttribute('data-engine', seat.engine);
    set.setAttribute('data-loaded', options ? '1' : '0');
    const legend = document.createElement('legend');
    legend.textContent = seat.label;
    set.appendChild(legend);
    const fields = document.createElement('div');
    fields.className = 'option-fields';  // scrolls under its legend
    set.appendChild(fields);
    if (!options) fields.append('asking the engine…');
    else if (options.error) fields.append(`could not ask the engine: ${options.error}`);
    else if (!options.length) fields.append('nothing the page may set (pbrain engines have no options)');
    for (const option of options && !options.error ? options : []) {
      const label = document.createElement('label');
      label.textContent = option.name + ' ';
      let input;
      if (option.type === 'combo') {
        input = document.createElement('select');
        for (const choice of option.choices) {
          const item = document.createElement('option');
          item.value = item.textContent = choice;
          input.appendChild(item);
        }
        input.value = option.value;
      } else {
        input = document.createElement('input');
        if (option.type === 'check') {
          input.type = 'checkbox';
          input.checked = option.value;
        } else {
          input.type = 'number';
          input.min = option.min;
          input.max = option.max;
          input.step = 1;
          input.value = option.value;
          label.title = `${option.min} to ${option.max}`;
        }
      }
      input.setAttribute('data-option', option.name);
      input.setAttribute('data-type', option.type);
      input.setAttribute('data-initial', String(option.value));
      label.appendChild(input);
      fields.appendChild(label);
    }
    box.appendChild(set);
  }
}

// The changed values of one seat's options ({} when none changed or the engine has none).
function optionValues(details, key) {
  const values = {};
  const set = details.querySelector(`[data-seat="${key}"]`);
  if (!set) return values;
  for (const input of set.querySelectorAll('[data-option]')) {
    const type = input.getAttribute('data-type');
    const value = type === 'check' ? input.checked : type === 'spin' ? (/^-?\d+$/.test(input.value.trim()) ? Number(input.value) : input.value) : input.value;
    if (String(value) !== input.getAttribute('data-initial')) values[input.getAttribute('data-option')] = value;
  }
  return values;
}

// ---- Forms
function fillGameSelects() {
  for (const select of document.querySelectorAll('.game-select')) {
    select.textContent = '';
    for (const game of GAMES) {
      const option = document.createElement('option');
      option.value = option.textContent = game;
      select.appendChild(option);
    }
  }
}

function drawVariantFields(form) {
  const game = form.elements.game.value;
  const box = form.querySelector('.variant-fields');
  if (!box) return;
  box.textContent = '';
  for (const [name, label, type, value] of VARIANT_FIELDS[game]) {
    const wrapper = document.createElement('label');
    wrapper.textContent = label + ' ';
    let input;
    if (Array.isArray(type)) {
      input = document.createElement('select');
      for (const choice of type) {
        const option = document.createElement('option');
        option.value = option.textContent = choice;
        input.appendChild(option);
      }
    } else {
      input = document.createElement('input');
      input.size = 4;
    }
    input.name = name;
    input.value = value;
    wrapper.appendChild(input);
    box.appendChild(wrapper);
  }
}

function variantOf(form) {
  const variant = {};
  for (const [name, , type] of VARIANT_FIELDS[form.elements.game.value]) {
    const value = form.elements[name].value.trim();
    if (value === '') continue;
    variant[name] = type === 'number' ? Number(value) : value;
  }
  return variant;
}

function drawPlayerSelects() {
  const form = $('#play-setup');
  const game = form.elements.game.value;
  for (const select of form.querySelectorAll('.player-select')) {
    const previous = select.value;
    select.textContent = '';
    const options = ['person'].concat(engines.filter((e) => e.game === game).map((e) => e.name));
    for (const name of options) {
      const option = document.createElement('option');
      option.value = option.textContent = name;
      select.appendChild(option);
    }
    if (options.includes(previous)) select.value = previous;
    else if (select.name === 'player1' && options.length > 1) select.value = options[1];
  }
}

// With a clock, engines play on it: the fixed move time is off (the server refuses both).
function syncClockFields() {
  const form = $('#play-setup');
  const clock = form.elements.tc.value.trim() !== '';
  form.elements.movetime.disabled = clock;
  $('#play-clock-note').hidden = !clock;
}

function newGame(event) {
  event.preventDefault();
  const form = $('#play-setup');
  const request = {type: 'new_game', game: form.elements.game.value, variant: variantOf(form),
                   players: [form.elements.player0.value, form.elements.player1.value], tc: form.elements.tc.value.trim(),
                   limit: {}, position: form.elements.position.value,
                   options: [optionValues($('#play-options'), 'seat0'), optionValues($('#play-options'), 'seat1')]};
  const movetime = form.elements.movetime.value.trim(), depth = form.elements.depth.value.trim();
  if (movetime && !request.tc) request.limit.movetime = Number(movetime);
  if (depth) request.limit.depth = Number(depth);
  replaceSession(panels.play, request);
  $('#play-setup').classList.remove('open');
  $('#play-setup-toggle').setAttribute('aria-expanded', 'false');
}

function openAnalysis(request) { replaceSession(panels.analysis, request); }

// Before a panel's first game, the board of its form's game stands in, under a line saying what
// to do (the server draws it from the game's start: {"type": "preview"}).
function askPreview(name) {
  if (panels[name].state || !socket || socket.readyState !== WebSocket.OPEN) return;
  const form = name === 'play' ? $('#play-setup') : $('#analysis-setup');
  send({type: 'preview', game: form.elements.game.value, variant: variantOf(form), for: name});
}
function showPreview(message) {
  const panel = panels[message.for];
  if (!panel || panel.state) return;
  const box = $(`#${message.for}-board`);
  box.textContent = '';
  box.setAttribute('data-preview', message.game);
  box.appendChild(drawBoard(message.game, message.board, {flipped: panel.flipped}));
}

// The panel's session is closed only once the new one exists: a refused request (a bad record,
// a bad position) leaves the old game on the board and working.
function replaceSession(panel, request) {
  panel.replacing = panel.state && !panel.gone ? panel.state.id : null;
  send(request);
}

// Each panel's session and its token, kept in this tab's sessionStorage: after a reload or a
// dropped connection the page resumes its game where it is (the server keeps it for 10 minutes).
function rememberSession(name, id, token) {
  sessionStorage.setItem(`bge-${name}`, JSON.stringify({id, token}));
}
function rememberedSession(name) {
  try { return JSON.parse(sessionStorage.getItem(`bge-${name}`) || 'null'); } catch (error) { return null; }
}
function resumeSessions() {
  for (const name of ['play', 'analysis']) {
    const saved = rememberedSession(name);
    if (saved && saved.id && saved.token) send({type: 'resume', id: saved.id, token: saved.token});
  }
}

// The set-up forms (the game, its sizes, the players, the clock, the engine's time, the record)
// survive a reload in this tab's sessionStorage, as the games themselves do: a New game after a
// reload starts the game set up before it.
const SAVED_FORMS = ['play-setup', 'analysis-setup', 'record-form'];
function saveForm(form) {
  const values = {};
  for (const element of form.elements)
    if (element.name && !['file', 'submit', 'button'].includes(element.type)) values[element.name] = element.value;
  sessionStorage.setItem(`bge-form-${form.id}`, JSON.stringify(values));
}
// Puts back the saved values of `names` (all when omitted) that the form can take now.
function restoreForm(form, names) {
  let values = null;
  try { values = JSON.parse(sessionStorage.getItem(`bge-form-${form.id}`) || 'null'); } catch (error) { values = null; }
  if (!values) return;
  for (const [name, value] of Object.entries(values)) {
    const element = form.elements.namedItem(name);
    if ((names && !names.includes(name)) || !element || typeof value !== 'string') continue;
    if (element.tagName === 'SELECT' && ![...element.options].some((option) => option.value === value)) continue;
    element.value = value;
  }
}

// ---- Watch
// Messages only mark what changed; drawing happens at most ten times a second, so a fast match
// with many games at once never floods the browser.
const dirty = {standings: false, games: new Set(), scheduled: false};
function scheduleWatchDraw(number) {
  if (number === undefined) dirty.standings = true;
  else dirty.games.add(number);
  if (dirty.scheduled) return;
  dirty.scheduled = true;
  setTimeout(() => requestAnimationFrame(() => {
    dirty.scheduled = false;
    drawWatch(dirty.standings, dirty.games);
    dirty.standings = false;
    dirty.games = new Set();
  }), 100);
}

function drawWatch(standingsChanged = true, changedGames = null) {
  $('#watch-none').hidden = watch.id !== null;
  const box = $('#watch-standings');
  const standings = watch.standings;
  if (standingsChanged) box.textContent = '';
  if (standings && standingsChanged) {
    const names = standings.engines.map((e) => e.name);
    const heading = document.createElement('h2');
    heading.textContent = `${standings.game} ${standings.variant}: ${standings.games.length} of ${plural(standings.scheduled_games, 'game')} played${watch.over ? ' (match over)' : ''}`;
    box.appendChild(heading);
    const table = document.createElement('table');
    table.className = 'pairs';
    table.innerHTML = '<tr><th>Pair</th><th>W</th><th>L</th><th>D</th><th>Score</th><th>Elo</th><th>Pair Elo</th><th>nElo</th><th>LOS</th><th>Ptnml(0-2)</th></tr>';
    const number = (v, digits) => (v === null || v === undefined ? '—' : Number(v).toFixed(digits));
    // An error bar of 0 comes from no spread at all (one pair, or every pair alike): undefined.
    const spread = (v) => (v === null || v === undefined || Number(v) === 0 ? '—' : Number(v).toFixed(1));
    for (const pair of standings.summary.pairs) {
      // JSON has no infinity: a null Elo with a clean sweep is an infinite one.
      const elo = (value) => (value === null && (pair.score === 1 || pair.score === 0) ? (pair.score === 1 ? '+∞' : '−∞') : number(value, 1));
      const row = document.createElement('tr');
      const cells = [`${names[pair.first]} vs ${names[pair.second]}`, pair.wins, pair.losses, pair.draws, number(pair.score * 100, 1) + '%',
        `${elo(pair.elo)} ± ${spread(pair.elo_error_95)}`,
        pair.pair_elo !== undefined ? `${elo(pair.pair_elo)} ± ${spread(pair.pair_elo_error_95)}` : '—',
        pair.nelo !== undefined ? `${elo(pair.nelo)} ± ${spread(pair.nelo_error_95)}` : '—',
        number(pair.los_percent, 1) + '%', '[' + pair.pentanomial.join(', ') + ']'];
      for (const value of cells) {
        const cell = document.createElement('td');
        cell.textContent = String(value);
        row.appendChild(cell);
      }
      row.setAttribute('data-pair', `${pair.first}-${pair.second}`);
      table.appendChild(row);
    }
    box.appendChild(table);
    if (standings.ranking) {
      const ranking = document.createElement('table');
      ranking.className = 'ranking';
      ranking.innerHTML = '<tr><th>Rank</th><th>Engine</th><th>Elo</th><th>Games</th><th>Score</th><th>Draws</th></tr>';
      standings.ranking.forEach((row, i) => {
        const tr = document.createElement('tr');
        for (const value of [i + 1, names[row.engine], `${number(row.elo, 0)} ± ${number(row.elo_error_95, 0)}`, row.games,
          number(row.score * 100, 1) + '%', number(row.draw_ratio * 100, 1) + '%']) {
          const cell = document.createElement('td');
          cell.textContent = String(value);
          tr.appendChild(cell);
        }
        ranking.appendChild(tr);
      });
      box.appendChild(ranking);
    }
    const finished = document.createElement('ol');
    finished.className = 'finished-games';
    for (const game of standings.games.slice(-12)) {
      const item = document.createElement('li');
      item.value = game.number;
      item.textContent = `${names[game.white]} vs ${names[game.black]}: ${game.result} {${game.reason}}`;
      item.title = 'open this game in the analysis tab';
      item.setAttribute('data-game-number', String(game.number));
      item.addEventListener('click', () => send({type: 'record', id: watch.id, number: game.number}));
      finished.appendChild(item);
    }
    box.appendChild(finished);
  }
  const grid = $('#watch-games');
  for (const card of [...grid.children]) if (!watch.games.has(Number(card.getAttribute('data-number')))) card.remove();
  for (const [number, game] of [...watch.games.entries()].sort((a, b) => a[0] - b[0])) {
    let card = grid.querySelector(`[data-number="${number}"]`);
    if (!card) {
      card = document.createElement('div');
      card.className = 'watch-card';
      card.setAttribute('data-number', String(number));
      grid.appendChild(card);
    } else if (changedGames && !changedGames.has(number)) {
      continue;
    }
    drawWatchCard(card, game);
  }
}

// A watched game's player and clock; the clock of the side to move runs until the game ends.
function watchPlayerLine(game, side) {
  const state = game.state, clock = state.clocks[side];
  const running = state.to_move === side && !game.result;
  const ms = clock === null ? null : running ? clock - (performance.now() - game.received) : clock;
  return `${state.side_names[side]}: ${state.players[side]} ${formatClock(ms)}`;
}

function drawWatchCard(card, game) {
  const state = game.state;
  card.textContent = '';
  const heading = document.createElement('div');
  heading.className = 'watch-heading';
  heading.textContent = `Game ${state.number}: ${state.players[0]} vs ${state.players[1]} · ply ${state.moves.length}`;
  card.appendChild(heading);
  const pv = !game.result && game.info && game.info.side === state.to_move ? game.info.pv : null;
  card.appendChild(drawBoard(state.game, state.board, {last: state.board.last || [], pv, pvFirstSide: state.to_move,
                                                       winning: state.board.winning}));
  for (let side = 0; side < 2; ++side) {
    const row = document.createElement('div');
    row.className = 'player' + (state.to_move === side && !game.result ? ' to-move' : '');
    row.textContent = watchPlayerLine(game, side);
    row.setAttribute('data-clock-side', String(side));
    card.appendChild(row);
  }
  const info = document.createElement('div');
  info.className = 'info';
  info.textContent = game.result ? `${game.result.result} {${game.result.reason}}` : describeInfo(game.info, state.side_names);
  card.appendChild(info);
  const graph = document.createElement('div');
  graph.className = 'graph';
  card.appendChild(graph);
  drawGraph(graph, state.scores || [], state.moves.length, null, state.movers);
}

// ---- Connection
function onMessage(message) {
  switch (message.type) {
    case 'welcome':
      engines = message.engines;
      optionRequests.clear();  // a request lost with a dropped connection is asked again
      drawPlayerSelects();
      restoreForm($('#play-setup'), ['player0', 'player1']);  // the engines' names are known now
      drawAnalysisEngines();
      drawEngineOptions();
      if (message.watch) {
        watch.id = message.watch;
        send({type: 'subscribe', id: message.watch});
        if (!location.hash) showTab('watch');
      }
      drawWatch();
      askPreview('play');
      askPreview('analysis');
      break;
    case 'preview':
      showPreview(message);
      break;
    case 'engine_options':
      engineOptions.set(message.engine, message.error ? {error: message.error} : message.options);
      optionRequests.delete(message.engine);
      drawEngineOptions();
      break;
    case 'created':
      if (message.token) rememberSession(message.request === 'new_game' ? 'play' : 'analysis', message.id, message.token);
      break;
    case 'state': {
      const panel = message.mode === 'play' ? panels.play : panels.analysis;
      if (panel.state && panel.state.id !== message.id && !panel.gone) {
        // A new session for this panel: the one it replaces goes now.
        if (panel.replacing === panel.state.id) send({type: 'close', id: panel.state.id});
        else break;  // a late message of a session this panel has left
      }
      panel.replacing = null;
      panel.gone = false;
      panel.update(message);
      if (message.mode === 'analysis') {
        $('#analysis-ply').textContent = `${message.ply} / ${message.moves.length}`;
        drawAnalysisEngines(message);
      }
      break;
    }
    case 'info': {
      for (const panel of [panels.play, panels.analysis]) {
        if (!panel.state || panel.state.id !== message.id) continue;
        const info = Object.assign({}, message.info, {pv: message.pv || message.info.pv});
        if (message.side !== undefined) info.side = message.side;
        if (message.node !== undefined && message.node !== panel.state.node) continue;  // a search of another move
        if (message.graph_score !== undefined && message.ply > 0 && message.ply === panel.state.ply) {
          while (panel.state.scores.length < message.ply) panel.state.scores.push(null);
          panel.state.scores[message.ply - 1] = message.graph_score;
        }
        panel.updateInfo(info);
      }
      break;
    }
    case 'error':
      showError(message.message);
      // A game the server no longer has: its board stays on show, but takes no more moves.
      for (const [name, panel] of Object.entries(panels)) {
        const saved = rememberedSession(name);
        if (message.id === undefined || !saved || saved.id !== message.id || !/cannot be resumed/.test(message.message)) continue;
        sessionStorage.removeItem(`bge-${name}`);
        if (panel.state && panel.state.id === message.id) {
          panel.gone = true;
          panel.state = Object.assign({}, panel.state, {legal: []});
          panel.draw();
        }
      }
      break;
    case 'match':
      watch.id = message.id;
      watch.standings = message.standings && message.standings.engines ? message.standings : watch.standings;
      watch.over = message.over;
      // Finished games stay on show until newer ones push them out: the last few, with their results.
      {
        const finished = [...watch.games.keys()].filter((n) => !message.running.includes(n) && watch.games.get(n).result).sort((a, b) => a - b);
        for (const number of finished.slice(0, Math.max(0, finished.length - 4))) watch.games.delete(number);
      }
      scheduleWatchDraw();
      break;
    case 'watch_game': {
      const game = watch.games.get(message.number) || {};
      game.state = message;
      game.received = performance.now();
      if (game.info && game.info.side !== message.to_move) game.info = null;
      watch.games.set(message.number, game);
      scheduleWatchDraw(message.number);
      break;
    }
    case 'view':
      panels.play.showView(message);
      break;
    case 'record':  // a finished game of the watched match
      openRecordInAnalysis(message.game, message.text);
      break;
    case 'watch_info': {
      const game = watch.games.get(message.number);
      if (!game) break;
      game.info = Object.assign({}, message.info, {pv: message.pv, side: message.side});
      scheduleWatchDraw(message.number);
      break;
    }
    case 'watch_over': {
      const game = watch.games.get(message.number);
      if (game) game.result = message;
      scheduleWatchDraw(message.number);
      break;
    }
    default:
      break;
  }
}

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.addEventListener('open', () => {
    $('#connection').textContent = 'connected';
    $('#connection').className = 'connection connected';
    send({type: 'hello'});
    resumeSessions();
  });
  socket.addEventListener('message', (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (error) { showError('the server sent something that is not JSON: ' + String(event.data).slice(0, 160)); return; }
    onMessage(message);
  });
  socket.addEventListener('close', () => {
    for (const panel of Object.values(panels)) if (panel.state) { panel.state = Object.assign({}, panel.state, {legal: []}); panel.draw(); }
    $('#connection').textContent = 'disconnected: reconnecting…';
    $('#connection').className = 'connection';
    setTimeout(connect, 1500);
  });
}

function drawAnalysisEngines(state) {
  const select = $('#analysis-engine');
  const game = state ? state.game : $('#analysis-setup').elements.game.value;
  const previous = select.value;
  select.textContent = '';
  for (const engine of engines.filter((e) => e.game === game)) {
    const option = document.createElement('option');
    option.value = option.textContent = engine.name;
    select.appendChild(option);
  }
  if (state && state.engine) select.value = state.engine;
  else if (previous) select.value = previous;
  $('#analysis-go').disabled = !state || select.options.length === 0;
  $('#analysis-stop').disabled = !state || !state.analysing;
  if (state && state.error) $('#analysis-info').textContent = state.error;
  drawEngineOptions();
}

// The tab shown is the page's address (#play, #analysis, #watch): a reload lands on it again.
function showTab(name) {
  for (const panel of document.querySelectorAll('.panel')) panel.hidden = panel.id !== `tab-${name}`;
  for (const tab of document.querySelectorAll('.tab')) tab.classList.toggle('chosen', tab.getAttribute('data-tab') === name);
  if (location.hash !== '#' + name) history.replaceState(null, '', '#' + name);
}

function analysisGoto(ply) {
  const state = panels.analysis.state;
  if (!state) return;
  send({type: 'goto', id: state.id, ply: Math.max(0, Math.min(state.moves.length, ply))});
}

function init() {
  fillGameSelects();
  for (const id of SAVED_FORMS) {
    const form = $(`#${id}`);
    restoreForm(form, ['game']);  // first: the variant's fields depend on it
    if (form.querySelector('.variant-fields')) drawVariantFields(form);
    restoreForm(form);
    for (const event of ['input', 'change']) form.addEventListener(event, () => saveForm(form));
  }
  for (const form of [$('#play-setup'), $('#analysis-setup')]) {
    form.elements.game.addEventListener('change', () => { drawVariantFields(form); drawPlayerSelects(); drawAnalysisEngines(); drawEngineOptions(); });
    form.addEventListener('change', () => askPreview(form.id === 'play-setup' ? 'play' : 'analysis'));
  }
  // On a phone the set-up form folds away once a game runs; this button brings it back.
  $('#play-setup-toggle').addEventListener('click', () => {
    const open = $('#play-setup').classList.toggle('open');
    $('#play-setup-toggle').setAttribute('aria-expanded', String(open));
  });
  panels.play = new BoardPanel('play', (move) => send({type: 'move', id: panels.play.state.id, move}));
  panels.analysis = new BoardPanel('analysis', (move) => send({type: 'move', id: panels.analysis.state.id, move}));
  $('#play-setup').addEventListener('submit', newGame);
  for (const event of ['input', 'change']) $('#play-setup').elements.tc.addEventListener(event, syncClockFields);
  syncClockFields();
  // Typed moves, in Play and in Analyse: the server reads them in the game's notation.
  for (const name of ['play', 'analysis']) {
    $(`#${name}-typed`).addEventListener('submit', (event) => {
      event.preventDefault();
      const input = $(`#${name}-typed`).elements.move;
      if (panels[name].state && input.value.trim()) panels[name].play(input.value.trim());
      input.value = '';
    });
  }
  $('#play-clear').addEventListener('click', () => { panels.play.selection = []; panels.play.draw(); });
  $('#play-undo').addEventListener('click', () => panels.play.state && send({type: 'undo', id: panels.play.state.id}));
  $('#analysis-setup').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = $('#analysis-setup');
    openAnalysis({type: 'analyse', game: form.elements.game.value, variant: variantOf(form),
                  position: form.elements.position.value, moves: form.elements.moves.value});
  });
  $('#record-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const form = $('#record-form');
    openAnalysis({type: 'load_record', game: form.elements.game.value, text: $('#record-text').value,
                  index: Math.max(0, (parseInt(form.elements.index.value, 10) || 1) - 1)});
  });
  $('#record-file').addEventListener('change', () => {
    const file = $('#record-file').files[0];
    if (!file) return;
    file.text().then((content) => {
      $('#record-text').value = content;
      const game = /\[Game "(\w+)"\]/.exec(content);
      const form = $('#record-form');
      if (game && GAMES.includes(game[1])) form.elements.game.value = game[1];
      else if (/\[(Size|Player1) "/.test(content) && !/\[Game "/.test(content)) form.elements.game.value = 'tak';
    });
  });
  $('#analysis-first').addEventListener('click', () => analysisGoto(0));
  $('#analysis-back').addEventListener('click', () => panels.analysis.state && analysisGoto(panels.analysis.state.ply - 1));
  $('#analysis-forward').addEventListener('click', () => panels.analysis.state && analysisGoto(panels.analysis.state.ply + 1));
  $('#analysis-last').addEventListener('click', () => panels.analysis.state && analysisGoto(panels.analysis.state.moves.length));
  $('#analysis-moves').addEventListener('click', (event) => {
    const item = event.target.closest('[data-node]');
    if (item && panels.analysis.state) send({type: 'goto', id: panels.analysis.state.id, node: Number(item.getAttribute('data-node'))});
  });
  $('#analysis-promote').addEventListener('click', () => panels.analysis.state &&
    send({type: 'promote', id: panels.analysis.state.id, node: panels.analysis.state.node}));
  $('#analysis-delete').addEventListener('click', () => panels.analysis.state &&
    send({type: 'delete', id: panels.analysis.state.id, node: panels.analysis.state.node}));
  // A choice made in a dropdown hands the keys back to the board (the arrows would change it).
  document.addEventListener('change', (event) => { if (event.target.matches('select')) event.target.blur(); });
  // Keys: f flips the board in view; arrows step, Home and End go to the ends. They go to the
  // board unless something is being typed in (a text field, an open dropdown).
  const typing = (target) => target.closest('textarea, select, [contenteditable]') ||
    (target.matches('input') && !['checkbox', 'radio', 'button', 'submit', 'file', 'range'].includes(target.type));
  document.addEventListener('keydown', (event) => {
    if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    const panel = !$('#tab-analysis').hidden ? panels.analysis : !$('#tab-play').hidden ? panels.play : null;
    if (!panel) return;
    if (event.key === 'f') { panel.flip(); event.preventDefault(); return; }
    if (panel === panels.play) {
      const state = panels.play.state, at = panels.play.viewedPly();
      if (!state) return;
      const target = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: state.moves.length}[event.key];
      if (target === undefined) return;
      panels.play.step(target);
      event.preventDefault();
      return;
    }
    const state = panels.analysis.state;
    if (!state) return;
    const target = {ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: state.moves.length}[event.key];
    if (target === undefined) return;
    analysisGoto(target);
    event.preventDefault();
  });
  $('#play-first').addEventListener('click', () => panels.play.step(0));
  $('#play-back').addEventListener('click', () => panels.play.step(panels.play.viewedPly() - 1));
  $('#play-forward').addEventListener('click', () => panels.play.step(panels.play.viewedPly() + 1));
  $('#play-live').addEventListener('click', () => panels.play.live());
  $('#play-moves').addEventListener('click', (event) => {
    const item = event.target.closest('[data-ply]');
    if (item) panels.play.step(Number(item.getAttribute('data-ply')));
  });
  $('#play-save').addEventListener('click', saveRecord);
  $('#play-analyse').addEventListener('click', analyseRecord);
  $('#analysis-go').addEventListener('click', () => panels.analysis.state &&
    send({type: 'start', id: panels.analysis.state.id, engine: $('#analysis-engine').value,
          options: optionValues($('#analysis-options'), 'analysis')}));
  $('#analysis-engine').addEventListener('change', drawEngineOptions);
  for (const select of document.querySelectorAll('#play-setup .player-select')) select.addEventListener('change', drawEngineOptions);
  $('#analysis-stop').addEventListener('click', () => panels.analysis.state && send({type: 'stop', id: panels.analysis.state.id}));
  for (const tab of document.querySelectorAll('.tab')) tab.addEventListener('click', () => showTab(tab.getAttribute('data-tab')));
  const landing = location.hash.slice(1);
  if (['play', 'analysis', 'watch'].includes(landing)) showTab(landing);
  else {  // no address yet: Play, without writing one
    for (const panel of document.querySelectorAll('.panel')) panel.hidden = panel.id !== 'tab-play';
    $('.tab[data-tab="play"]').classList.add('chosen');
  }
  setInterval(() => {
    panels.play.tickClocks();
    if (watch.games.size && !$('#tab-watch').hidden) {
      for (const card of document.querySelectorAll('.watch-card')) {
        const game = watch.games.get(Number(card.getAttribute('data-number')));
        if (!game || game.result) continue;
        for (const row of card.querySelectorAll('[data-clock-side]'))
          row.textContent = watchPlayerLine(game, Number(row.getAttribute('data-clock-side')));
      }
    }
  }, 100);
  connect();
}

init();
