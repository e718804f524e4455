// The 99 filler tools every server registers beside `add_note`, so that
// each lists 100 tools: `fillers!(callback)` calls `callback!` with each
// filler's function name and the unit struct tool-core's `#[tool]` makes of
// it. Included by both Rust servers; the Python server makes the same names.
macro_rules! fillers {
    ($callback:ident) => {
        $callback! {
            note_1 Note1, note_2 Note2, note_3 Note3, note_4 Note4, note_5 Note5, note_6 Note6, note_7 Note7,
            note_8 Note8, note_9 Note9, note_10 Note10, note_11 Note11, note_12 Note12, note_13 Note13, note_14 Note14,
            note_15 Note15, note_16 Note16, note_17 Note17, note_18 Note18, note_19 Note19, note_20 Note20, note_21 Note21,
            note_22 Note22, note_23 Note23, note_24 Note24, note_25 Note25, note_26 Note26, note_27 Note27, note_28 Note28,
            note_29 Note29, note_30 Note30, note_31 Note31, note_32 Note32, note_33 Note33, note_34 Note34, note_35 Note35,
            note_36 Note36, note_37 Note37, note_38 Note38, note_39 Note39, note_40 Note40, note_41 Note41, note_42 Note42,
            note_43 Note43, note_44 Note44, note_45 Note45, note_46 Note46, note_47 Note47, note_48 Note48, note_49 Note49,
            note_50 Note50, note_51 Note51, note_52 Note52, note_53 Note53, note_54 Note54, note_55 Note55, note_56 Note56,
            note_57 Note57, note_58 Note58, note_59 Note59, note_60 Note60, note_61 Note61, note_62 Note62, note_63 Note63,
            note_64 Note64, note_65 Note65, note_66 Note66, note_67 Note67, note_68 Note68, note_69 Note69, note_70 Note70,
            note_71 Note71, note_72 Note72, note_73 Note73, note_74 Note74, note_75 Note75, note_76 Note76, note_77 Note77,
            note_78 Note78, note_79 Note79, note_80 Note80, note_81 Note81, note_82 Note82, note_83 Note83, note_84 Note84,
            note_85 Note85, note_86 Note86, note_87 Note87, note_88 Note88, note_89 Note89, note_90 Note90, note_91 Note91,
            note_92 Note92, note_93 Note93, note_94 Note94, note_95 Note95, note_96 Note96, note_97 Note97, note_98 Note98,
            note_99 Note99,
        }
    };
}
