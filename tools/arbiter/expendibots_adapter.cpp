#include "tools/arbiter/expendibots_adapter.hpp"

#include <fmt/format.h>

#include "core/expendibots/game_log.hpp"

namespace bge::arbiter {

Expected<expendibots::Variant> ExpendibotsAdapter::make_variant(const MatchConfig& config) {
    if (config.size && *config.size != expendibots::board_size)
        return make_error(fmt::format("-size {}: expendibots is played on 8x8 only", *config.size));
    if (config.half_komi != 0) return make_error("-komi: expendibots has no komi");
    return expendibots::Variant{};
}

std::string ExpendibotsAdapter::variant_text(const expendibots::Variant&) { return "8x8"; }

Expected<OptionList> ExpendibotsAdapter::rule_options(const expendibots::Variant&, const EnginePlayer&) {
    return OptionList{};  // the rules have no options
}

std::string ExpendibotsAdapter::new_game_command(protocol::Dialect dialect, const expendibots::Variant&) {
    return dialect == protocol::Dialect::tei ? "teinewgame" : "uginewgame";
}

std::string ExpendibotsAdapter::rule_phrase(const Outcome& outcome) {
    if (outcome.reason == "no tokens") return "with no tokens left";
    if (outcome.reason == "turn limit") return "by the turn limit";
    if (outcome.reason == "repetition") return "by 4-fold repetition";
    return fmt::format("by {}", outcome.reason);
}

Expected<std::vector<Opening<expendibots::Expendibots>>> ExpendibotsAdapter::parse_record_openings(
    std::string_view text, const expendibots::Variant&) {
    auto logs = expendibots::parse_game_logs(text);
    if (!logs) return make_error(logs.error());
    std::vector<Opening<Game>> openings;
    for (const auto& log : *logs) openings.push_back({log.start, log.moves});
    return openings;
}

std::string ExpendibotsAdapter::format_record(const PlayedGame<Game>& played, const RecordInfo& info) {
    expendibots::GameLog log;
    log.set_tag("White", info.white);
    log.set_tag("Black", info.black);
    log.set_tag("Date", info.date);
    log.set_tag("Round", std::to_string(info.round));
    log.set_tag("Result", expendibots::result_text(played.end.outcome));
    log.set_tag("Termination", termination_tag(played.end));
    log.set_tag("Actions", std::to_string(played.moves.size()));
    if (played.start.actions != 0 || played.start.hash != expendibots::start_state().hash)
        log.set_tag("FEN", expendibots::format_fen(played.start));
    log.start = played.start;
    log.moves = played.moves;
    log.comments = played.comments;
    // The referee's closing line; endings the referee does not know say what happened too.
    const Outcome& outcome = played.end.outcome;
    if (played.end.termination == Termination::rules)
        log.closing = expendibots::referee_result_message(outcome);
    else if (outcome.kind == OutcomeKind::win)
        log.closing = fmt::format("winner: {} ({})", outcome.winner == Side::first ? "white" : "black",
                                  describe(played.end, rule_phrase(outcome), side_names));
    else
        log.closing = fmt::format("draw detected: {}", describe(played.end, rule_phrase(outcome), side_names));
    return expendibots::write_game_log(log);
}

// The referee's log has no place for a mark after an action: it goes first in the comment.
Expected<std::vector<AnalysisRecord<expendibots::Expendibots>>> ExpendibotsAdapter::analysis_records(
    std::string_view text, const expendibots::Variant&) {
    auto logs = expendibots::parse_game_logs(text, IllegalMoves::end_game_there);
    if (!logs) return make_error(logs.error());
    std::vector<AnalysisRecord<Game>> records;
    for (expendibots::GameLog& log : *logs) {
        AnalysisRecord<Game> record;
        record.start = log.start;
        record.moves = log.moves;
        record.problem = log.problem;
        if (const std::string* result = log.tag("Result")) record.result = *result;
        record.write = [log = std::move(log)](const std::vector<std::string>& comments,
                                              const std::vector<std::string>& marks) {
            expendibots::GameLog annotated = log;
            annotated.comments = comments;
            for (std::size_t i = 0; i < marks.size() && i < annotated.comments.size(); ++i)
                if (!marks[i].empty())
                    annotated.comments[i] = annotated.comments[i].empty() ? marks[i] : marks[i] + " " + annotated.comments[i];
            return expendibots::write_game_log(annotated);
        };
        records.push_back(std::move(record));
    }
    return records;
}

}  // namespace bge::arbiter
