/* The room's terms on the table page (config.room, docs/protocol.md): points or coins,
 * the base unit N, the fee A (系统回收) and the stake a coin room freezes for a game;
 * and my coins: the balance with what is frozen (config.wallet, then the `wallet` of
 * the `table` messages sent to me). */

import { config, dom, state, t } from "./page.js";

export function renderRoom() {
  const room = config.room || {};
  const parts = [];
  if (room.ruleset_name) {
    parts.push(room.ruleset_name);
  }
  const coins = room.kind === "coins" || room.coins === true;
  parts.push(t(coins ? "room_coins" : "room_points"));
  if (room.base_unit !== undefined && room.base_unit !== null) {
    parts.push(t("room_unit", { unit: room.base_unit }));
  }
  if (coins && room.fee !== undefined && room.fee !== null) {
    parts.push(t("room_fee", { fee: room.fee }));
  }
  if (coins && room.stake) {
    parts.push(t("room_stake", { stake: room.stake }));
  }
  const wallet = state.wallet;
  if (coins && wallet) {
    parts.push(t("wallet", { balance: wallet.balance, frozen: wallet.frozen }));
  }
  dom.roomInfo.textContent = parts.join(" · ");
  dom.roomInfo.hidden = false;
  dom.roomInfo.dataset.kind = coins ? "coins" : "points";
  if (wallet) {
    dom.roomInfo.dataset.balance = String(wallet.balance);
    dom.roomInfo.dataset.frozen = String(wallet.frozen);
  }
}
